import { describe, expect, test } from 'vitest';
import { serversThatFit } from '../../src/supervisor/supervisor.js';
import { usableCores } from '../../src/config/usable-cores.js';
import { tempDataDir } from '../support/service.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const MB = 2 ** 20;

describe('sizing the servers', () => {
  test('When the first server is measured, then as many more fit as 80 % of the memory available holds', () => {
    expect(serversThatFit(500 * MB, 4000 * MB)).toBe(1 + 6); // 3,200 MB / 500 MB
    expect(serversThatFit(500 * MB, 400 * MB)).toBe(1); // none beside it
    expect(serversThatFit(0, 100 * MB)).toBeGreaterThan(1); // a reading of 0 divides nothing by zero
  });

  test('When a cgroup quota is below the cores the process may run on, then the quota decides, rounded up', () => {
    const dir = tempDataDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'cpu.max');
    writeFileSync(file, '150000 100000\n');
    expect(usableCores(file)).toBe(Math.min(2, usableCores(path.join(dir, 'missing'))));
    writeFileSync(file, 'max 100000\n');
    expect(usableCores(file)).toBe(usableCores(path.join(dir, 'missing')));
  });
});
