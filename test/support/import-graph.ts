// The import graph of src/: every file's relative imports (value and type-only alike), read with a
// small scanner of import/export-from statements, and the cycles between files (Tarjan's strongly
// connected components). What test/layers.test.ts checks the documented layers against.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface ImportEdge {
  /** Paths relative to the scanned root, with '/' separators ('http/server.ts'). */
  from: string;
  to: string;
  /** `import type …` / `export type … from`: erased when compiled, still a dependency of the design. */
  typeOnly: boolean;
}

/**
 * import … from '…', import '…', export … from '…', including multi-line specifier lists. Dynamic
 * import() is not a module edge the layers speak of (the code has none).
 */
const STATEMENT = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?(?:[\w*{}\s,$]*?\s+from\s+)?['"]([^'"]+)['"]/g;

function sourceFiles(dir: string, root: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, root, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return out;
}

/** Every relative import of every .ts file under `root`. */
export function importEdges(root: string): { files: string[]; edges: ImportEdge[] } {
  const files = sourceFiles(root, root, []).sort();
  const edges: ImportEdge[] = [];
  for (const file of files) {
    // Comments may quote import statements: scan the code only.
    const text = readFileSync(path.join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    for (const [, , typeWord, specifier] of text.matchAll(STATEMENT)) {
      if (!specifier!.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier!)).replace(/\.js$/, '.ts');
      edges.push({ from: file, to: target, typeOnly: typeWord !== undefined });
    }
  }
  return { files, edges };
}

/** The cycles: each strongly connected component of more than one file, its files sorted. */
export function importCycles(files: readonly string[], edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const edge of edges) next.get(edge.from)?.push(edge.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!next.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}
