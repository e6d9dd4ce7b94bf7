import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { hmacSignature, verifyHmacSignature } from '../../src/integrations/hmac-signature.js';
import { fixtureBytes } from './shopify/fixtures.js';

describe('verifyHmacSignature', () => {
  // Computed once by hand with `openssl dgst -sha256 -hmac hush -binary | base64` over these bytes.
  test('When the header is the base64 HMAC-SHA256 of the exact bytes, then it verifies', () => {
    const body = Buffer.from('{"id":632910392}');
    expect(hmacSignature(body, 'hush')).toBe(KNOWN_SIGNATURE);
    expect(verifyHmacSignature(body, KNOWN_SIGNATURE, ['hush'])).toBe(true);
  });

  test('When the body differs by one byte (re-serialized JSON), the secret is another, or the header is missing or malformed, then it does not', () => {
    const body = fixtureBytes('order');
    const signature = hmacSignature(body, 'hush');
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(body.toString())));
    expect(verifyHmacSignature(reserialized, signature, ['hush'])).toBe(false);
    expect(verifyHmacSignature(body, signature, ['other'])).toBe(false);
    expect(verifyHmacSignature(body, undefined, ['hush'])).toBe(false);
    expect(verifyHmacSignature(body, signature.slice(1), ['hush'])).toBe(false);
    expect(verifyHmacSignature(body, Buffer.from(signature).toString('hex'), ['hush'])).toBe(false);
    expect(verifyHmacSignature(body, signature, [])).toBe(false);
  });

  test('When the shop accepts two secrets (a rotation), then a signature with either verifies', () => {
    const body = fixtureBytes('product');
    expect(verifyHmacSignature(body, hmacSignature(body, 'old'), ['new', 'old'])).toBe(true);
    expect(verifyHmacSignature(body, hmacSignature(body, 'new'), ['new', 'old'])).toBe(true);
  });

  test('When given any bytes, secret and header, then it verifies exactly when the header is the signature with that secret', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.string({ minLength: 1, maxLength: 40 }), fc.oneof(fc.string(), fc.base64String()), (bytes, secret, header) => {
        expect(verifyHmacSignature(bytes, hmacSignature(bytes, secret), [secret])).toBe(true);
        expect(verifyHmacSignature(bytes, header, [secret])).toBe(header === hmacSignature(bytes, secret));
      }),
    );
  });
});

const KNOWN_SIGNATURE = '31QiKEttyxLoRsA1qKSeOfJF7CXt58bex4Q0y3Tu8b4=';
