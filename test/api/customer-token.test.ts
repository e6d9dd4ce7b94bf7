import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { verifyAppProxy } from '../../src/api/app-proxy.js';
import {
  generateSigningSecret,
  MAX_TOKEN_LIFETIME_S,
  mintCustomerToken,
  signingKey,
  signingSecretId,
  verifyCustomerToken,
} from '../../src/api/customer-token.js';

const NOW_S = 1_760_000_000;
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const secret = generateSigningSecret();
const other = generateSigningSecret();
const customerIdArb = fc.string({ minLength: 1, maxLength: 128, unit: 'grapheme' }).filter((s) => s.length <= 128);

describe('customer tokens', () => {
  test('When a token is minted for a shop and customer, then it proves exactly that customer for that shop until it expires', () => {
    fc.assert(
      fc.property(customerIdArb, fc.integer({ min: 1, max: MAX_TOKEN_LIFETIME_S }), (customerId, ttl) => {
        const token = mintCustomerToken(secret, 'shop-a', customerId, NOW_S + ttl);
        expect(verifyCustomerToken(token, 'shop-a', [signingKey(secret)], NOW_S)).toBe(customerId);
        expect(verifyCustomerToken(token, 'shop-b', [signingKey(secret)], NOW_S)).toBeUndefined();
        expect(verifyCustomerToken(token, 'shop-a', [signingKey(other)], NOW_S)).toBeUndefined();
        expect(verifyCustomerToken(token, 'shop-a', [signingKey(secret)], NOW_S + ttl)).toBeUndefined();
      }),
    );
  });

  test('When any character of a token is changed, then it proves nothing', () => {
    const token = mintCustomerToken(secret, 'shop-a', 'customer-42', NOW_S + 3600);
    fc.assert(
      fc.property(fc.nat(token.length - 1), fc.constantFrom(...B64URL, '.'), (at, ch) => {
        fc.pre(token[at] !== ch);
        const changed = token.slice(0, at) + ch + token.slice(at + 1);
        expect(verifyCustomerToken(changed, 'shop-a', [signingKey(secret)], NOW_S)).toBeUndefined();
      }),
      // The signature's last character with only its spare low bit flipped: decodes to the same bytes.
      { examples: [[token.length - 1, B64URL[B64URL.indexOf(token.at(-1)!) ^ 1]!]] },
    );
  });

  test('When the token is hand-made by the documented recipe, then it verifies (merchants can mint without us)', () => {
    const id = signingSecretId(secret)!;
    const expiresAt = NOW_S + 600;
    const sig = createHmac('sha256', secret).update(`ct1\nshop-a\nc-7\n${expiresAt}`).digest('base64url');
    const token = `ct1.${id}.${expiresAt}.${Buffer.from('c-7').toString('base64url')}.${sig}`;
    expect(verifyCustomerToken(token, 'shop-a', [signingKey(secret)], NOW_S)).toBe('c-7');
  });

  test('When a token is valid for longer than the allowed lifetime, or is junk, then it proves nothing', () => {
    const long = mintCustomerToken(secret, 'shop-a', 'c', NOW_S + MAX_TOKEN_LIFETIME_S + 1);
    expect(verifyCustomerToken(long, 'shop-a', [signingKey(secret)], NOW_S)).toBeUndefined();
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), (junk) => {
        expect(verifyCustomerToken(junk, 'shop-a', [signingKey(secret)], NOW_S)).toBeUndefined();
      }),
    );
  });
});

describe('app proxy signatures', () => {
  // Shopify's documented example (shopify.dev, "Authenticate app proxies"; shop "shop-name"), shared secret "hush".
  const example =
    'extra=1&extra=2&shop=shop-name.myshopify.com&logged_in_customer_id=1&path_prefix=%2Fapps%2Fawesome_reviews&timestamp=1317327555&signature=4c68c8624d737112c91818c11017d24d334b524cb5c2b8ba08daa056f7395ddb';

  test("When Shopify's documented example is checked with its secret, then it names the logged-in customer", () => {
    expect(verifyAppProxy(example, 'hush', 1317327555 + 10)).toBe('1');
  });

  test('When the secret, a signed parameter or the time is wrong, then it names nobody', () => {
    expect(verifyAppProxy(example, 'hush!', 1317327555)).toBeUndefined();
    expect(verifyAppProxy(example.replace('logged_in_customer_id=1', 'logged_in_customer_id=2'), 'hush', 1317327555)).toBeUndefined();
    expect(verifyAppProxy(example + '&customerId=9', 'hush', 1317327555)).toBeUndefined();
    expect(verifyAppProxy(example, 'hush', 1317327555 + 2 * 3600)).toBeUndefined();
  });
});
