// Shopify payloads as its documentation shows them (test/fixtures/shopify/*.json), read fresh for each use.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const DIR = path.resolve(import.meta.dirname, '../../fixtures/shopify');

/** The raw bytes of a fixture, as a webhook would deliver them. */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(path.join(DIR, `${name}.json`));
}

/** A fixture parsed (a fresh copy each call, free to change). */
export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureBytes(name).toString('utf8')) as T;
}
