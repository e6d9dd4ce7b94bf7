import { afterAll, describe, expect, test } from 'vitest';
import { DashboardSessions } from '../../src/dashboard/sessions.js';
import { LmdbSessionTable } from '../../src/store/dashboard-session-table.js';
import { tempDatabases } from '../support/temp-databases.js';

const { dbs, cleanup } = tempDatabases();

afterAll(() => cleanup());

describe('LmdbSessionTable', () => {
  test('When a session opens in one process, then another finds it; when that one closes it, neither does', async () => {
    const [one, two] = [0, 1].map(() => new DashboardSessions(new LmdbSessionTable(dbs, 1000), 1000));
    const { token, session, stored } = one!.open('sk_one', 0);
    await stored;
    expect(two!.use(token, 10)).toEqual({ ...session, lastUsed: 10 });
    expect([...dbs.dashboardSessions.getKeys()].some((key) => key.includes(token))).toBe(false); // kept by the token's hash only
    await two!.close(token);
    expect(one!.use(token, 20)).toBeUndefined();
  });

  test('When a session sits idle past the idle time, then it is over, and the next sign-in drops it from the table', async () => {
    const sessions = new DashboardSessions(new LmdbSessionTable(dbs, 1000), 1000);
    const old = sessions.open('sk_old', 0);
    await old.stored;
    expect(sessions.use(old.token, 999)).toBeDefined();
    expect(sessions.use(old.token, 2500)).toBeUndefined();
    const before = sessions.size;
    await sessions.open('sk_new', 5000).stored;
    expect(sessions.size).toBeLessThanOrEqual(before);
  });

  test('When more sessions are opened than the bound, then the least recently used go first and the count never passes it', async () => {
    const { dbs: own, cleanup: close } = tempDatabases();
    try {
      const sessions = new DashboardSessions(new LmdbSessionTable(own, 1e9, 3), 1e9);
      const tokens: string[] = [];
      for (let i = 0; i < 5; i++) {
        const opened = sessions.open(`sk_${i}`, i * 1000);
        await opened.stored;
        tokens.push(opened.token);
        expect(sessions.size).toBeLessThanOrEqual(3);
      }
      expect(tokens.map((token) => sessions.use(token, 10_000) !== undefined)).toEqual([false, false, true, true, true]);
    } finally {
      await close();
    }
  });
});
