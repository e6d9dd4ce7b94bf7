// The composition root: configuration from the environment, the service, signals.
import { ConfigError, loadConfig, type Config } from './config.js';
import { StartupError } from './errors.js';
import { startService, type RunningService } from './service.js';

function banner(config: Config, service: RunningService): string {
  const base = `http://${config.host}:${service.port}`;
  const lines = [
    `Pairwise listening on ${base}${config.basePath ? ` (also under ${config.basePath}/api)` : ''}`,
    `  data: ${config.dbPath} (${service.replayed.snapshots} shops from snapshots, then replayed ${service.replayed.products} products and ${service.replayed.events} events in ${service.replayed.ms} ms)`,
  ];
  if (service.demoKeys) {
    const { publicKey, secretKey } = service.demoKeys;
    lines.push(
      `  demo storefront: ${base}/demo`,
      '  demo store "demo":',
      `    public key (storefront): ${publicKey}`,
      `    secret key (admin):      ${secretKey}`,
      `  try: curl -H "Authorization: Bearer ${publicKey}" "${base}/api/recommendations?strategy=trending&limit=3"`,
    );
  }
  if (config.bootstrap) lines.push(`  shop "${config.bootstrap.shopId}" bootstrapped from the environment`);
  return lines.join('\n');
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
  let service: RunningService;
  try {
    service = await startService(config);
  } catch (error) {
    if (error instanceof StartupError) {
      console.error(`not started: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  console.log(banner(config, service));
  const shutdown = (signal: string) => {
    console.log(`${signal}: shutting down`);
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
