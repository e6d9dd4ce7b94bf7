// The native uWebSockets.js binary must be in use: the package silently falls back to a slow JS
// implementation (printing "Falling back") when its binary does not load.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import uWS from 'uWebSockets.js';
import { startChildServer } from '../support/child-server.js';
import { newShop, tempDataDir } from '../support/service.js';

describe('uWebSockets.js', () => {
  test('When the module is loaded in-process, then App is native code from the .node binary, not the JS fallback', () => {
    expect(Function.prototype.toString.call(uWS.App)).toMatch(/\{\s*\[native code\]\s*\}/);
    const require = createRequire(import.meta.url);
    const loaded = Object.keys(require.cache).filter((file) => file.includes('uWebSockets.js'));
    const binary = `/binaries/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
    expect(loaded.some((file) => file.endsWith(binary))).toBe(true);
    expect(loaded.filter((file) => file.includes('/dist/'))).toEqual([]);
  });

  test('When the compiled server starts, then its output never says "Falling back" and it serves requests', async () => {
    const dataDir = tempDataDir();
    const shop = newShop();
    const child = await startChildServer(dataDir, shop);
    try {
      const res = await fetch(`${child.url}/api/recommendations`, { headers: { authorization: `Bearer ${shop.publicKey}` } });
      expect(res.status).toBe(200);
      expect(child.output()).toContain('Pairwise listening on');
      expect(child.output()).not.toContain('Falling back');
      expect(child.output()).not.toContain('not compatible');
    } finally {
      child.process.kill('SIGTERM');
      await child.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
