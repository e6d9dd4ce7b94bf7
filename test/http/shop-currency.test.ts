// PUT /api/shop/currency: the shop names the currency its prices are in; GET /api/shop and the
// dashboard's page carry it (the page formats revenue with it), and it survives a restart.
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { parseCurrency } from '../../src/api/currency.js';
import { expectProblem } from '../support/problem.js';
import { startTestService, type TestService } from '../support/service.js';

function putCurrency(t: TestService, body: unknown) {
  return t.fetch('/api/shop/currency', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify(body) });
}

const currencyOf = async (t: TestService) => ((await (await t.fetch('/api/shop', { key: t.shop.secretKey })).json()) as { settings: { currency: string | null } }).settings.currency;

async function dashboardPage(t: TestService): Promise<string> {
  const signIn = await fetch(`${t.url}/dashboard/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url }, body: new URLSearchParams({ key: t.shop.secretKey }).toString() });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';', 1)[0]!;
  return (await fetch(`${t.url}/dashboard`, { headers: { cookie } })).text();
}

describe('shop currency', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  test('When the shop names its currency, then GET /api/shop and the dashboard page carry it, also after a restart; unset, they say null and nothing', async () => {
    const t = await startTestService();
    started.push(t);
    expect(await currencyOf(t)).toBeNull();
    expect(await dashboardPage(t)).toContain('<meta name="shop-currency" content="">');

    const res = await putCurrency(t, { currency: 'EUR' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ currency: 'EUR' });
    expect(await currencyOf(t)).toBe('EUR');
    expect(await dashboardPage(t)).toContain('<meta name="shop-currency" content="EUR">');

    await t.stop();
    const again = await startTestService({ dataDir: t.dataDir, shop: t.shop });
    started.push(again);
    expect(await currencyOf(again)).toBe('EUR');
  });

  test('When the body is not an ISO 4217 code, then 400 invalid_currency naming /currency, and nothing changes', async () => {
    const t = await startTestService();
    started.push(t);
    for (const body of [{ currency: 'eur' }, { currency: 'XQQ' }, { currency: 'EURO' }, {}, { currency: 5 }]) {
      const problem = await expectProblem(await putCurrency(t, body), 400, 'invalid_currency');
      expect(problem.errors?.[0]?.pointer).toBe('/currency');
    }
    expect(await currencyOf(t)).toBeNull();
  });

  test('When any input is parsed, then it is accepted exactly when it is an object whose currency is a known three-letter code', () => {
    const known = new Set(Intl.supportedValuesOf('currency'));
    fc.assert(
      fc.property(fc.oneof(fc.record({ currency: fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 5 })) }), fc.anything()), (input) => {
        const parsed = parseCurrency(input);
        const code = (input as { currency?: unknown } | null)?.currency;
        const valid = typeof input === 'object' && input !== null && !Array.isArray(input) && typeof code === 'string' && known.has(code) && /^[A-Z]{3}$/.test(code);
        expect(parsed.ok).toBe(valid);
      }),
    );
  });
});
