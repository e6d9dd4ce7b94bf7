// The composition root: configuration from the environment, the service, signals.
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from './config.js';
import { StartupError } from './errors.js';
import { startService, type RunningService } from './service.js';
import { startupSummary } from './startup-summary.js';
import { joinSupervisor } from './supervisor/server-link.js';
import { startSupervisor } from './supervisor/start.js';
import { processLog } from './observability/log.js';

function banner(config: Config, service: RunningService): string {
  const base = `http://${config.host}:${service.port}`;
  const lines = [
    `Pairwise listening on ${base}${config.basePath ? ` (also under ${config.basePath}/api)` : ''}`,
    `  ${startupSummary(config.dbPath, service.replayed, service.demoSeeded)}`,
  ];
  if (service.demoKeys) {
    const { publicKey, secretKey } = service.demoKeys;
    lines.push(
      `  demo storefront: ${base}/demo`,
      `  dashboard: ${base}/dashboard (sign in with the secret key below)`,
      '  demo store "demo":',
      `    public key (storefront): ${publicKey}`,
      `    secret key (admin):      ${secretKey}`,
      `  try: curl -H "Authorization: Bearer ${publicKey}" "${base}/api/recommendations?strategy=trending&limit=3"`,
    );
  }
  if (config.bootstrap) lines.push(`  shop "${config.bootstrap.shopId}" bootstrapped from the environment`);
  return lines.join('\n');
}

/**
 * Ends the process at once, for the exits that may find LMDB still writing: a crash, a stop whose
 * storage did not close. Node's own exit joins the libuv threads (uv__threadpool_cleanup), and an
 * LMDB write thread that waits for transaction callbacks of this thread, which runs no more, never
 * returns: the process would hang with its port held. Nothing acknowledged is lost this way, as
 * acknowledgements wait for the disk.
 */
function exitAtOnce(): void {
  process.kill(process.pid, 'SIGKILL');
}

/** Logs `error` after `what` (stderr is synchronous on Linux, so the line is out before the kill), then exitAtOnce. */
function fatal(what: string): (error: unknown) => void {
  return (error) => {
    console.error(what, error);
    exitAtOnce();
  };
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  process.on('uncaughtException', fatal('uncaught exception:'));
  process.on('unhandledRejection', fatal('unhandled rejection:'));
  // A start that waits on nothing Node counts as open (an unref'd timer, a promise nobody settles)
  // would end the process with code 0 and not a word, which no process manager restarts.
  const stalled = () => {
    console.error('start-up failed: it was left waiting on nothing (a bug); exiting with code 1');
    process.exit(1);
  };
  process.once('beforeExit', stalled);
  const supervised = config.servers > 1 && config.serverIndex === undefined;
  const output = processLog({ server: config.serverIndex === undefined ? undefined : config.serverIndex + 1, accessLog: config.accessLog && !supervised });
  const { log } = output;
  if (supervised) {
    await startSupervisor(config, fileURLToPath(import.meta.url), log);
    process.off('beforeExit', stalled);
    return;
  }
  let service: RunningService;
  try {
    service = await startService(config, { log, ...(output.accessOn ? { access: output.access } : {}) });
    process.off('beforeExit', stalled);
  } catch (error) {
    // No write is in flight when a start fails, and startService has closed LMDB: an ordinary exit is safe.
    const message = error instanceof Error ? error.message : String(error);
    console.error(error instanceof StartupError ? `not started: ${message}` : `start-up failed: ${message}`);
    process.exit(1);
  }
  const shutdown = (signal: string) => {
    const started = performance.now();
    log(`${signal}: shutting down`, { event: 'stop', signal });
    service.stop().then(() => {
      const seconds = Math.round(performance.now() - started) / 1000;
      log(`stopped in ${seconds} s`, { event: 'stopped', seconds });
      output.flush();
      process.exit(0);
    }, fatal('shutdown failed:'));
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  if (config.serverIndex === undefined) {
    console.log(banner(config, service));
    log(`started on ${config.host}:${service.port}`, { event: 'start', servers: 1, host: config.host, port: service.port, dataDir: config.dataDir });
  } else joinSupervisor(service, banner(config, service), () => shutdown('supervisor gone'));
}

main().catch(fatal('start-up failed:'));
