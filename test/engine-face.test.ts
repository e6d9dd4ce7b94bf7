// The engine's face kept: no file outside src/engine/ reads or writes a model of a ShopEngine (its
// fields: catalog, scores, shoppers, attribution, the answer scratch, …) directly; they go through
// the methods of ShopFace (engine/shop-face.ts), the engine's own commands (what the log applier
// calls), or hand the engine to an engine function whole.
// The check is by type, not by name: the TypeScript checker gives the type of every property
// access, destructuring and element access outside src/engine/, so an alias
// (`const s = engines.get(id); s.shoppers`) is found as surely as `engine.shoppers`.
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve('.');
const ENGINE_DIR = path.join(ROOT, 'src', 'engine') + path.sep;
const SHOP_ENGINE_FILE = path.join(ENGINE_DIR, 'shop-engine.ts');
const SHOP_FACE_FILE = path.join(ENGINE_DIR, 'shop-face.ts');
/** Fields every caller may read: the engine's settings and its id order. */
const ALSO_ALLOWED = new Set(['config', 'compareIds']);

function sourceFiles(): string[] {
  const configPath = path.join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  return parsed.fileNames.filter((file) => path.resolve(file).startsWith(path.join(ROOT, 'src') + path.sep));
}

function program(extra: Record<string, string> = {}): ts.Program {
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, skipLibCheck: true, noEmit: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (file) => extra[path.resolve(file)] ?? readFile(file);
  host.fileExists = (file) => path.resolve(file) in extra || fileExists(file);
  return ts.createProgram([...sourceFiles(), ...Object.keys(extra)], options, host);
}

function isClass(type: ts.Type, name: string, file: string): boolean {
  const symbol = type.getSymbol();
  return symbol?.getName() === name && (symbol.declarations ?? []).some((d) => path.resolve(d.getSourceFile().fileName) === file);
}

/** `file:line: receiver.name` for each reach past the face outside src/engine/. */
function reachesPastTheFace(prog: ts.Program): string[] {
  const checker = prog.getTypeChecker();
  const declaration = <T extends ts.Node>(file: string, is: (s: ts.Statement) => s is T & ts.Statement): T => {
    const found = prog.getSourceFile(file)?.statements.find(is);
    if (found === undefined) throw new Error(`not found in ${path.relative(ROOT, file)}`);
    return found;
  };
  const face = declaration(SHOP_FACE_FILE, (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'ShopFace');
  const engineClass = declaration(SHOP_ENGINE_FILE, (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'ShopEngine');
  const shown = new Set([...checker.getTypeAtLocation(face).getProperties().map((p) => p.getName()), ...ALSO_ALLOWED]);
  // The engine's models: its public instance fields (methods are its commands, getters its reads).
  const models = new Set(
    engineClass.members
      .filter((m): m is ts.PropertyDeclaration => ts.isPropertyDeclaration(m) && ts.isIdentifier(m.name) && !(ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Static))
      .map((m) => (m.name as ts.Identifier).text)
      .filter((name) => !shown.has(name)),
  );
  if (models.size === 0) throw new Error('ShopEngine declares no model fields: the check would pass vacuously');
  const isEngine = (node: ts.Node) => {
    const type = checker.getNonNullableType(checker.getTypeAtLocation(node));
    return type.isUnion() ? type.types.some((t) => isClass(t, 'ShopEngine', SHOP_ENGINE_FILE)) : isClass(type, 'ShopEngine', SHOP_ENGINE_FILE);
  };
  const found: string[] = [];
  for (const source of prog.getSourceFiles()) {
    const file = path.resolve(source.fileName);
    if (source.isDeclarationFile || !file.startsWith(path.join(ROOT, 'src') + path.sep) || file.startsWith(ENGINE_DIR)) continue;
    const report = (node: ts.Node, name: string) => {
      if (!models.has(name) && name !== '[computed]') return;
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${path.relative(ROOT, file)}:${line + 1}: ${node.getText().slice(0, 80)}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && isEngine(node.expression)) report(node, node.name.text);
      if (ts.isElementAccessExpression(node) && isEngine(node.expression)) {
        const key = node.argumentExpression;
        report(node, ts.isStringLiteralLike(key) ? key.text : '[computed]');
      }
      if (ts.isObjectBindingPattern(node) && isEngine(node)) {
        for (const element of node.elements) {
          const name = element.propertyName ?? element.name;
          report(element, ts.isIdentifier(name) || ts.isStringLiteralLike(name) ? name.text : '[computed]');
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe("the engine's face", () => {
  test('When every file outside src/engine/ is type-checked, then no expression of type ShopEngine, however named, reaches one of its model fields', () => {
    expect(reachesPastTheFace(program())).toEqual([]);
  }, 120_000);

  test('When code outside src/engine/ reaches a model through an alias, a destructuring or an index, then the check names each', () => {
    const probe = path.join(ROOT, 'src', 'app', 'face-probe.ts');
    const found = reachesPastTheFace(
      program({
        [probe]: [
          "import type { ShopEngines } from '../engine/shop-engines.js';",
          'export function probe(engines: ShopEngines, id: string): unknown {',
          '  const s = engines.get(id);',
          '  const { catalog } = s;',
          "  return [s.shoppers, s['attribution'], catalog, s.config, s.counts()];",
          '}',
        ].join('\n'),
      }),
    );
    expect(found.map((line) => line.replace(/^[^ ]+ /, ''))).toEqual(['catalog', 's.shoppers', "s['attribution']"]);
  }, 120_000);
});
