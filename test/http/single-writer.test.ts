// One server per data dir and per port: a second one refuses to start, a server killed with -9
// does not block the next one.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { StartupError } from '../../src/errors.js';
import { startService } from '../../src/service.js';
import { LOCK_FILE } from '../../src/store/data-dir-lock.js';
import { freePort, killIfRunning, spawnChildServer, startChildServer, type ChildServer } from '../support/child-server.js';
import { newShop, postEvents, startTestService, tempDataDir, testEnv, type TestService } from '../support/service.js';

describe('one server per data dir and port', () => {
  const services: TestService[] = [];
  const children: ChildServer[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await killIfRunning(child);
    for (const t of services.splice(0)) await t.cleanup();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function serving(): Promise<TestService> {
    const t = await startTestService();
    services.push(t);
    return t;
  }

  test('When a second service starts on the data dir of a running one, then it refuses with the dir and the holder\'s pid, and the first keeps serving and storing', async () => {
    const first = await serving();

    const second = startService(loadConfig(testEnv(first.dataDir, first.shop)), { log: () => {} });

    await expect(second).rejects.toThrow(StartupError);
    await expect(second).rejects.toThrow(`data dir ${first.dataDir} is in use by another Pairwise server (pid ${process.pid}`);
    await postEvents(first, [{ type: 'view', productId: '1', sessionId: 's1' }]); // its LMDB is still open
    await first.stop();
    const third = await startTestService({ dataDir: first.dataDir, shop: first.shop });
    services.push(third);
    expect((await third.fetch('/api/recommendations')).status).toBe(200);
  });

  test('When a second server process starts on the data dir of a running one, then it exits 1 with a message naming the dir and the pid', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const shop = newShop();
    const first = await startChildServer(dataDir, shop);
    children.push(first);

    const second = await spawnChildServer(dataDir, shop);
    children.push(second);

    expect((await second.exited).code).toBe(1);
    expect(second.output()).toContain(`not started: data dir ${dataDir} is in use by another Pairwise server (pid ${first.process.pid}`);
    expect((await fetch(first.url + '/healthz')).status).toBe(200);
  });

  test('When the server holding the data dir is killed with SIGKILL, then a new one starts on it at once', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const shop = newShop();
    const first = await startChildServer(dataDir, shop);
    children.push(first);
    first.process.kill('SIGKILL');
    await first.exited;

    const started = performance.now();
    const second = await startChildServer(dataDir, shop);
    children.push(second);

    expect(performance.now() - started).toBeLessThan(10_000);
    const lock = JSON.parse(readFileSync(path.join(dataDir, 'db', LOCK_FILE), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(second.process.pid);
  });

  test('When a second service asks for the port a running one listens on, then it refuses to start and leaves its data dir unlocked', async () => {
    // A port asked for by number: uSockets sets SO_REUSEPORT only then (never for port 0).
    const port = String(await freePort());
    const first = await startTestService({ env: { PORT: port } });
    services.push(first);
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const config = loadConfig(testEnv(dataDir, newShop(), { PORT: port }));

    const second = startService(config, { log: () => {} });

    await expect(second).rejects.toThrow(`cannot listen on 127.0.0.1:${port}: the port is taken`);
    const retried = await startTestService({ dataDir }); // the refused start took its lock back
    services.push(retried);
    expect((await first.fetch('/api/recommendations')).status).toBe(200);
  });
});
