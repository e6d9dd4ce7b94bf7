// The layers of docs/architecture.md, kept true: every import of src/ (type-only ones included)
// points down the layers or sideways within one, the transports reach the models only through app/,
// the browser bundles take only types from the server's wire types (and a format's constants), and no two files import each
// other, directly or round a loop.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { importCycles, importEdges, type ImportEdge } from './support/import-graph.js';

/** Lowest first: a file may import its own layer and those below. Folders, or files at the root of src/. */
const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'html.ts', 'compiled-module.ts', 'thread-priority.ts', 'observability'],
  ['engine'],
  ['limits'],
  ['config.ts', 'config'],
  ['api', 'analytics'],
  ['store'],
  ['ingest'],
  ['integrations'],
  ['app'],
  ['dashboard', 'demo'],
  ['transport'],
  ['http', 'ws'],
  ['service.ts', 'startup-summary.ts', 'cli'],
  ['supervisor'],
  ['main.ts'],
];

/** Parts of one layer that never import each other (two transports; the dashboard and the demo store). */
const APART: readonly (readonly [string, string])[] = [
  ['http', 'ws'],
  ['dashboard', 'demo'],
];

/** The one sideways import between transports: the OpenAPI document describes the stream's messages. */
const ALLOWED_SIDEWAYS: readonly string[] = ['http/openapi/schemas.ts -> ws/protocol.ts'];

/**
 * What the transports never reach: they call the use cases of app/, which alone know the storage and
 * the models. They may name the engine's data types (a Product, a Recommendation), never call into it
 * nor hold its registry of models.
 */
const TRANSPORTS = ['transport', 'http', 'ws'];
const BELOW_APP = ['store', 'ingest'];
const MODELS = 'engine/shop-engines.ts';

/**
 * Browser code, bundled by esbuild: it may take types from the wire types (api/), and values only from
 * an api/ file that imports nothing (a format's constants both sides share), nothing else of the server.
 */
const BROWSER = ['widget', 'dashboard/client'];

const root = path.resolve('src');
const { files, edges } = importEdges(root);
const selfContained = new Set(files.filter((file) => !edges.some((edge) => edge.from === file)));

function group(file: string): string {
  for (const browser of BROWSER) if (file.startsWith(`${browser}/`)) return browser;
  const slash = file.indexOf('/');
  return slash === -1 ? file : file.slice(0, slash);
}

function rank(file: string): number {
  const g = group(file);
  const i = LAYERS.findIndex((layer) => layer.includes(g));
  if (i === -1) throw new Error(`src/${file}: its folder "${g}" is in no layer of test/layers.test.ts (add it, and to docs/architecture.md)`);
  return i;
}

/** Why the import breaks the layers; undefined when it does not. */
function crossing(edge: ImportEdge): string | undefined {
  const from = group(edge.from);
  const to = group(edge.to);
  if (from === to) return undefined;
  if (BROWSER.includes(to)) return 'browser code is bundled, never imported';
  if (BROWSER.includes(from)) return to === 'api' && (edge.typeOnly || selfContained.has(edge.to)) ? undefined : 'browser code takes only types from api/, and values from a self-contained api/ file';
  if (rank(edge.to) > rank(edge.from)) return 'points up';
  if (APART.some(([a, b]) => (from === a && to === b) || (from === b && to === a)) && !ALLOWED_SIDEWAYS.includes(`${edge.from} -> ${edge.to}`)) return 'sideways between parts kept apart';
  if (TRANSPORTS.includes(from) && (BELOW_APP.includes(to) || (to === 'engine' && (!edge.typeOnly || edge.to === MODELS)))) return 'a transport reaching below app/';
  return undefined;
}

describe('the layers of src/', () => {
  test('When every import is read, then each points down the layers', () => {
    const found = edges.flatMap((edge) => {
      const why = crossing(edge);
      return why === undefined ? [] : [`${edge.from} -> ${edge.to} (${why})`];
    });
    expect(found).toEqual([]);
  });

  test('When the files are followed import by import, then none comes back to itself', () => {
    expect(importCycles(files, edges)).toEqual([]);
  });

  test('When a scan of a small tree is made, then it finds value, type-only and multi-line imports and their cycle', () => {
    const demo = importEdges(path.resolve('test/fixtures/import-graph'));
    expect(demo.edges).toEqual([
      { from: 'a.ts', to: 'b.ts', typeOnly: false },
      { from: 'a.ts', to: 'c/d.ts', typeOnly: true },
      { from: 'b.ts', to: 'c/d.ts', typeOnly: false },
      { from: 'c/d.ts', to: 'a.ts', typeOnly: true },
    ]);
    expect(importCycles(demo.files, demo.edges)).toEqual([['a.ts', 'b.ts', 'c/d.ts']]);
  });
});
