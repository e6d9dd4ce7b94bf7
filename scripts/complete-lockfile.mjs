// The npm registry reachable here lacks some platform builds of optional native packages
// (msgpackr-extract for darwin, win32, linux-arm: 404), so `npm install` leaves them out of
// package-lock.json and `npm ci` then refuses the lock as out of sync. This adds them back as
// optional, platform-restricted entries, which npm ci skips on other platforms.
// Run after any `npm install` that changes the dependencies: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const extract = lock.packages['node_modules/@msgpackr-extract/msgpackr-extract-linux-x64'];
if (extract === undefined) throw new Error('msgpackr-extract is not in the lock: nothing to complete');
const platforms = { 'darwin-arm64': ['darwin', 'arm64'], 'darwin-x64': ['darwin', 'x64'], 'linux-arm': ['linux', 'arm'], 'linux-arm64': ['linux', 'arm64'], 'linux-x64': ['linux', 'x64'], 'win32-x64': ['win32', 'x64'] };
let added = 0;
for (const [name, [os, cpu]] of Object.entries(platforms)) {
  const key = `node_modules/@msgpackr-extract/msgpackr-extract-${name}`;
  if (lock.packages[key] !== undefined) continue;
  lock.packages[key] = { version: extract.version, cpu: [cpu], license: 'MIT', optional: true, os: [os] };
  added++;
}
// npm writes the entries in its own order (the root first, then by path as compared by
// String.prototype.localeCompare with the 'en' locale: '_' before '-', case ignored); sorting by
// code units instead made the next `npm install` reorder the lock (82 lines) and dirty the tree.
const byNpmOrder = ([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'));
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(byNpmOrder));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`package-lock.json: ${added} optional platform entries added`);
