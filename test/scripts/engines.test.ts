// What `npm ci` installs runs on the Node the project is built for (package.json engines.node, from
// 20.19: the Node 20 of the uWS binary in use, at the version the test tools need): every locked
// package's own engines.node admits its lowest version, so the install prints no EBADENGINE
// warning. A dependency that drops Node 20 is pinned to a version that keeps it (package.json
// overrides: @nats-io/nuid 3 asks for Node 22 and changes nothing the NATS client uses).
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, test } from 'vitest';

interface Lock {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}

describe('engines', () => {
  test('When the lockfile is installed, then every package accepts the Node versions package.json names (no EBADENGINE)', () => {
    const project = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    const lowest = semver.minVersion(project.engines.node)!.version;
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Lock;
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => !Array.isArray(entry.engines) && entry.engines?.node !== undefined)
      .filter(([, entry]) => !semver.satisfies(lowest, (entry.engines as { node: string }).node))
      .map(([name, entry]) => `${name.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${(entry.engines as { node: string }).node}`);
    expect(lowest).toBe('20.19.0');
    expect(refusing).toEqual([]);
    expect(semver.satisfies(process.version, project.engines.node)).toBe(true);
  });
});
