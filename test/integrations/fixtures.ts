// Platform payloads as their documentation shows them (test/fixtures/<platform>/*.json), read fresh for each use.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../fixtures');

/** The raw bytes of a fixture, as a webhook would deliver them. */
export function platformFixtureBytes(platform: string, name: string): Buffer {
  return readFileSync(path.join(ROOT, platform, `${name}.json`));
}

/** A fixture parsed (a fresh copy each call, free to change). */
export function platformFixture<T = Record<string, unknown>>(platform: string, name: string): T {
  return JSON.parse(platformFixtureBytes(platform, name).toString('utf8')) as T;
}
