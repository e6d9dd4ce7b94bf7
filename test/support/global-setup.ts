// Builds dist/ once before the tests that spawn the compiled server as a child process.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
}
