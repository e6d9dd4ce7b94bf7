// Runs a benchmark server script (baseline-server.js, service-server.js) as a pinned child process,
// waits for its ready line and stops it at the end — or when this process exits for any reason.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { pinned, type Pinning } from './pinning.js';
import type { ReadyLine } from './ready-line.js';

const TAIL_LINES = 40;
const live = new Set<ChildProcess>();

process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export class ChildServer {
  private constructor(
    readonly name: string,
    readonly info: ReadyLine,
    readonly child: ChildProcess,
  ) {}

  get port(): number {
    return this.info.port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.info.port}`;
  }

  /** Starts `node [nodeArgs] <script>` pinned to the server CPU; resolves with its ready line. */
  static start(
    name: string,
    script: string,
    env: Record<string, string>,
    pinning: Pinning,
    nodeArgs: readonly string[] = [],
    timeoutMs = 180_000,
  ): Promise<ChildServer> {
    const [command, args] = pinned(pinning, pinning.serverCpu, process.execPath, [...nodeArgs, script]);
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(child);
    child.once('exit', () => live.delete(child));
    const tail: string[] = [];
    const remember = (line: string) => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
    };
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (reason: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`${name}: ${reason}\n--- last output ---\n${tail.join('\n')}`));
      };
      const timer = setTimeout(() => fail(`not ready after ${timeoutMs} ms`), timeoutMs);
      const watch = (line: string) => {
        remember(line);
        if (line.includes('Falling back') || line.includes('fallback implementation')) fail('uWebSockets.js fell back to its JS implementation');
      };
      createInterface({ input: child.stderr! }).on('line', watch);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        watch(line);
        if (settled || !line.startsWith('{"ready":true')) return;
        settled = true;
        clearTimeout(timer);
        resolve(new ChildServer(name, JSON.parse(line) as ReadyLine, child));
      });
      child.once('error', (error) => fail(`cannot start: ${error.message}`));
      child.once('exit', (code, signal) => fail(`exited before it was ready (code ${code}, signal ${signal})`));
    });
  }

  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
