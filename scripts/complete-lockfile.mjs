// The npm registry reachable here lacks some platform builds of optional native packages
// (msgpackr-extract for darwin, win32, linux-arm: 404), so `npm install` leaves them out of
// package-lock.json and `npm ci` then refuses the lock as out of sync. This adds them back as
// optional, platform-restricted entries, which npm ci skips on other platforms.
// Run after any `npm install` that rewrites the lock: node scripts/complete-lockfile.mjs
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
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`package-lock.json: ${added} optional platform entries added`);
