// The engine's face kept: no file outside src/engine/ reads or writes a model of a ShopEngine (its
// catalog, scores, shoppers, attribution, the answer scratch, …) directly; they go through the
// methods of ShopFace (engine/shop-face.ts) or hand the engine to an engine function whole. The
// fields are read from the class itself, so a model added to it is kept off at once.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const SRC = path.resolve('src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** ShopEngine's `readonly` fields: its models (and the config every caller may read). */
function modelFields(): string[] {
  const source = readFileSync(path.join(SRC, 'engine/shop-engine.ts'), 'utf8');
  const body = source.slice(source.indexOf('export class ShopEngine'));
  const fields = [...body.matchAll(/^ {2}readonly (\w+)\b/gm)].map((m) => m[1]!);
  return fields.filter((name) => name !== 'config' && name !== 'compareIds');
}

describe("the engine's face", () => {
  test('When ShopEngine is read, then its models are found (the list this test guards is not empty)', () => {
    expect(modelFields()).toEqual(expect.arrayContaining(['catalog', 'shoppers', 'pending', 'scratch', 'attribution', 'ease', 'rules', 'attributes']));
  });

  test('When every file outside src/engine/ is read, then none reaches a model of a ShopEngine', () => {
    const fields = modelFields().join('|');
    // `engine.x`, `engines.get(id).x`, `….engine.x` (an entry's engine): the ways code outside holds one.
    const reach = new RegExp(`(?:\\bengine|engines\\.get\\([^)]*\\))\\s*\\.\\s*(?:${fields})\\b`, 'g');
    const found: string[] = [];
    for (const file of files(SRC)) {
      const relative = path.relative(SRC, file);
      if (relative.startsWith(`engine${path.sep}`)) continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const match of line.matchAll(reach)) found.push(`src/${relative}:${i + 1}: ${match[0]}`);
      });
    }
    expect(found).toEqual([]);
  });
});
