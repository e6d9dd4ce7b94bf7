import { afterAll, describe, expect, test } from 'vitest';
import { Lease } from '../../src/store/lease.js';
import { LeaseFlag } from '../../src/store/lease-flag.js';
import { tempDatabases } from '../support/temp-databases.js';

const { dbs, cleanup } = tempDatabases();

afterAll(() => cleanup());

describe('Lease', () => {
  test('When two processes want the lease, then one holds it while it renews, the other takes it once it runs out or is released', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const changes: string[] = [];
    const a = new Lease(dbs, 'work', 4000, clock, (held) => changes.push(`a ${held}`));
    const b = new Lease(dbs, 'work', 4000, clock, (held) => changes.push(`b ${held}`));

    expect(await a.renew()).toBe(true);
    expect(await b.renew()).toBe(false);
    now += 3000;
    expect(await a.renew()).toBe(true); // renewed: runs out 4 s from now
    now += 3999;
    expect(await b.renew()).toBe(false);
    now += 2; // a stopped renewing (it died): the lease ran out
    expect(await b.renew()).toBe(true);
    expect(await a.renew()).toBe(false);
    await b.release();
    expect(b.held).toBe(false);
    expect(await a.renew()).toBe(true); // at once, not after the lease would have run out
    expect(changes).toEqual(['a true', 'b true', 'a false', 'b false', 'a true']);
  });

  test('When leases have other names, then they are held apart', async () => {
    const x = new Lease(dbs, 'x', 1000);
    const y = new Lease(dbs, 'y', 1000);
    expect([await x.renew(), await y.renew()]).toEqual([true, true]);
  });
});

describe('LeaseFlag', () => {
  test('When the holder raises its flag, then every process sees it up until the holder lowers it or its lease runs out', async () => {
    let now = 2_000_000;
    const clock = () => now;
    const holder = new Lease(dbs, 'refits', 4000, clock);
    const other = new Lease(dbs, 'refits', 4000, clock);
    const raised = new LeaseFlag(dbs, holder, 'refit-running', clock);
    const seen = new LeaseFlag(dbs, other, 'refit-running', clock); // another process's view
    expect(await holder.renew()).toBe(true);
    expect(seen.up).toBe(false);
    await raised.set(true);
    expect([raised.up, seen.up]).toEqual([true, true]);
    await raised.set(false);
    expect(seen.up).toBe(false);
    await raised.set(true);
    now += 4001; // the holder died with its flag up: its lease ran out
    expect(seen.up).toBe(false);
    expect(await other.renew()).toBe(true);
    expect(seen.up).toBe(false); // the new holder raised nothing
    await seen.set(false); // lowering another holder's flag leaves it
    expect(dbs.leases.get('refit-running')?.holder).toBe(holder.holder);
  });
});
