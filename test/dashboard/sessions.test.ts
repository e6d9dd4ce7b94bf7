import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { csrfMatches, DashboardSessions, MemorySessionTable } from '../../src/dashboard/sessions.js';

describe('DashboardSessions', () => {
  test('When a session is opened, then its token finds it and nothing else does (malformed, unknown, closed)', () => {
    const sessions = new DashboardSessions();
    const { token, session } = sessions.open('sk_a', 0);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.use(token, 1)).toEqual({ ...session, lastUsed: 1 });
    expect(session.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(sessions.use(undefined, 1)).toBeUndefined();
    expect(sessions.use(token + 'x', 1)).toBeUndefined();
    expect(sessions.use('A'.repeat(43), 1)).toBeUndefined();
    sessions.close(token);
    expect(sessions.use(token, 2)).toBeUndefined();
  });

  test('When a session goes unused for the idle time, then it is over; each use pushes that time back', () => {
    const sessions = new DashboardSessions(new MemorySessionTable(10), 1000);
    const { token } = sessions.open('sk_a', 0);
    expect(sessions.use(token, 999)).toBeDefined();
    expect(sessions.use(token, 1998)).toBeDefined();
    expect(sessions.use(token, 2998)).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  test('When more sessions open than the bound, then the least recently used go first and the count never passes it', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(30), { maxLength: 200 }), (uses) => {
        const sessions = new DashboardSessions(new MemorySessionTable(8), 1e9);
        const tokens: string[] = [];
        const reference: string[] = []; // least recently used first
        for (const use of uses) {
          if (use % 3 === 0 || tokens.length === 0) {
            const { token } = sessions.open('sk_a', 0);
            tokens.push(token);
            reference.push(token);
            if (reference.length > 8) reference.shift();
          } else {
            const token = tokens[use % tokens.length]!;
            const live = reference.includes(token);
            expect(sessions.use(token, 0) !== undefined).toBe(live);
            if (live) reference.push(...reference.splice(reference.indexOf(token), 1));
          }
          expect(sessions.size).toBe(reference.length);
        }
      }),
    );
  });

  test('When the CSRF header is checked, then only the exact token passes', () => {
    const { session } = new DashboardSessions().open('sk_a', 0);
    expect(csrfMatches(session, session.csrf)).toBe(true);
    expect(csrfMatches(session, undefined)).toBe(false);
    expect(csrfMatches(session, '')).toBe(false);
    expect(csrfMatches(session, session.csrf.slice(1) + 'x')).toBe(false);
  });
});
