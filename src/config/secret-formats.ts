// The forms of the secrets the environment may hold (PAIRWISE_PUBLIC_KEY, PAIRWISE_SECRET_KEY,
// PAIRWISE_SIGNING_SECRET), as the service makes them: config.ts refuses any other, and the
// customer tokens name a signing secret by its id (api/customer-token.ts).

/** An API key: its kind's prefix, then at least 128 random bits in base64url. */
export const PUBLIC_KEY = /^pk_[A-Za-z0-9_-]{22,}$/;
export const SECRET_KEY = /^sk_[A-Za-z0-9_-]{22,}$/;

/** A customer-token signing secret: "cts_", an 8-character id, "_", then at least 32 base64url characters. */
const SIGNING_SECRET = /^cts_([A-Za-z0-9]{8})_[A-Za-z0-9_-]{32,}$/;

/** The secret's id, or undefined when the string is not a signing secret. */
export function signingSecretId(secret: string): string | undefined {
  return SIGNING_SECRET.exec(secret)?.[1];
}
