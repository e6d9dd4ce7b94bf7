// The admin CLI: shops, keys, and imports of catalogs and event histories (npm run cli -- help).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MAX_TOKEN_LIFETIME_S, mintCustomerToken } from '../api/customer-token.js';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { readLockHolder } from '../store/data-dir-lock.js';
import { openDatabases } from '../store/database.js';
import { closeDatabases } from '../store/durable-commit.js';
import { backfillPositions } from '../store/position-backfill.js';
import { ShopStore } from '../store/shop-store.js';
import { importFile, type ImportKind } from './import-file.js';
import { DirectSink, HttpSink, type ImportSink } from './sinks.js';

const USAGE = `usage: npm run cli -- <command> [options]

  shop create <shopId> [--origins <origin,...>]   create a shop and print its first public and secret key
  shop list                                       list shops
  shop origins <shopId> [<origin,...>]            set the browser origins allowed for the shop (none = any)
  key create <shopId> --kind public|secret [--label <text>]
  key list <shopId>                               key fingerprints, kinds and labels (keys are never stored)
  key revoke <fingerprint>                        revoke a key by the fingerprint shown by key list
  token secret <shopId>                           add a customer-token signing secret (the previous one stays valid) and print it
  token mint <shopId> <customerId> [--ttl <s>]    print a customer token (default 3600 s, at most 31 days) signed with the newest secret
  token app-proxy <shopId> [<shared secret>]      set (or, without one, remove) the shop's Shopify app proxy secret
  import catalog <shopId> <file>                  products: .json, .ndjson/.jsonl or .csv (optionally .gz)
  import events <shopId> <file>                   events: .ndjson/.jsonl, .json or .csv (optionally .gz)

options:
  --data-dir <dir>   data directory (default: PAIRWISE_DATA_DIR or ./data); LMDB lives in <dir>/db
  --url <url>        import through a running server's API (live at once) instead of into LMDB
                     (stored straight into LMDB, a running server's models get them at its next start)
  --key <sk_…>       the shop's secret key, with --url
`;

function fail(message: string): never {
  console.error(`error: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      origins: { type: 'string' },
      kind: { type: 'string' },
      label: { type: 'string' },
      ttl: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, action, ...args] = positionals;
  if (values.help || group === undefined || group === 'help') {
    console.log(USAGE);
    return;
  }
  const dataDir = path.resolve(values['data-dir'] ?? loadConfig().dataDir);
  const dbPath = path.join(dataDir, 'db');
  mkdirSync(dbPath, { recursive: true });
  const dbs = openDatabases(dbPath);
  const shops = new ShopStore(dbs);
  try {
    await run(group, action, args, values, shops, dbs);
  } finally {
    await closeDatabases(dbs); // also after a commit that failed (a full disk), which root.close() alone would wait on for ever
  }
}

type Values = { origins?: string; kind?: string; label?: string; url?: string; key?: string; ttl?: string };

function origins(list: string | undefined): string[] {
  return (list ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

async function run(group: string, action: string | undefined, args: string[], values: Values, shops: ShopStore, dbs: ReturnType<typeof openDatabases>): Promise<void> {
  const command = `${group} ${action ?? ''}`.trim();
  const shopId = args[0];
  const needShop = () => {
    if (shopId === undefined) fail(`${command} needs a shop id`);
    if (shops.getShop(shopId) === undefined) fail(`unknown shop "${shopId}"`);
    return shopId;
  };
  switch (command) {
    case 'shop create': {
      if (shopId === undefined) fail('shop create needs a shop id');
      if (!(await shops.ensureShop(shopId, { allowedOrigins: origins(values.origins) }))) fail(`shop "${shopId}" already exists`);
      console.log(`shop "${shopId}" created`);
      console.log(`public key (storefront): ${await shops.createKey(shopId, 'public', 'created with the shop')}`);
      console.log(`secret key (admin):      ${await shops.createKey(shopId, 'secret', 'created with the shop')}`);
      console.log('keep the secret key secret: it is shown once and only its hash is stored');
      return;
    }
    case 'shop list':
      for (const id of shops.listShops()) console.log(`${id}\t${shops.getShop(id)!.allowedOrigins.join(',') || '(any origin)'}`);
      return;
    case 'shop origins':
      await shops.setAllowedOrigins(needShop(), origins(args[1]));
      console.log(`allowed origins of "${shopId}": ${origins(args[1]).join(', ') || 'any'}`);
      return;
    case 'key create': {
      const id = needShop();
      if (values.kind !== 'public' && values.kind !== 'secret') fail('key create needs --kind public or --kind secret');
      console.log(await shops.createKey(id, values.kind, values.label));
      return;
    }
    case 'key list':
      for (const k of shops.listKeys(needShop())) {
        console.log(`${k.hash.slice(0, 16)}\t${k.kind}\t${new Date(k.createdAt).toISOString()}\t${k.label ?? ''}`);
      }
      return;
    case 'key revoke': {
      const prefix = args[0];
      if (prefix === undefined || prefix.length < 8) fail('key revoke needs at least 8 characters of a fingerprint');
      const matches = shops.listShops().flatMap((id) => shops.listKeys(id)).filter((k) => k.hash.startsWith(prefix));
      if (matches.length !== 1) fail(`${matches.length} keys match "${prefix}"`);
      await shops.revokeKey(matches[0]!.hash);
      console.log(`revoked ${prefix} (a running server forgets it within 30 s)`);
      return;
    }
    case 'token secret': {
      const secret = await shops.rotateSigningSecret(needShop());
      console.log(secret);
      console.error('give it to the server that renders your storefront (it mints customer tokens); a token of the secret before this one stays valid until the next rotation');
      return;
    }
    case 'token mint': {
      const id = needShop();
      const customerId = args[1];
      if (customerId === undefined) fail('token mint needs a customerId');
      const ttl = Number(values.ttl ?? 3600);
      if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_LIFETIME_S) fail(`--ttl must be whole seconds from 1 to ${MAX_TOKEN_LIFETIME_S}`);
      const secret = shops.getShop(id)!.signingSecrets?.[0];
      if (secret === undefined) fail(`shop "${id}" has no signing secret yet: run token secret ${id}`);
      console.log(mintCustomerToken(secret, id, customerId, Math.floor(Date.now() / 1000) + ttl));
      return;
    }
    case 'token app-proxy': {
      await shops.setAppProxySecret(needShop(), args[1]);
      console.log(args[1] === undefined ? `app proxy secret of "${shopId}" removed` : `app proxy secret of "${shopId}" set`);
      return;
    }
    case 'import catalog':
    case 'import events': {
      const id = needShop();
      const file = args[1];
      if (file === undefined) fail(`${command} needs a file`);
      let sink: ImportSink;
      if (values.url !== undefined) {
        if (values.key === undefined || !values.key.startsWith('sk_')) fail('--url needs --key with the shop secret key');
        sink = new HttpSink(values.url, values.key);
      } else {
        await backfillPositions(dbs); // an older data dir's events get log positions before new ones follow them
        sink = new DirectSink(dbs, loadConfig().dedupTtlMs);
      }
      const summary = await importFile(sink, id, action as ImportKind, file);
      console.log(
        `${summary.records} records in ${summary.seconds} s: ${summary.accepted} stored, ${summary.duplicates} duplicates, ${summary.rejected} rejected`,
      );
      for (const error of summary.errors) console.log(`  ${error}`);
      if (summary.rejected > summary.errors.length) console.log(`  … and ${summary.rejected - summary.errors.length} more`);
      if (values.url === undefined) console.log(directImportNote(dbs.path, action === 'events' ? 'events' : 'products'));
      if (summary.rejected > 0) process.exitCode = 1;
      return;
    }
    default:
      fail(`unknown command "${command}"`);
  }
}

/**
 * A direct import may run beside a server (it does not take the server's lock): LMDB lets both
 * write, and the server replays by log position, so these records reach its models at its next
 * start at the latest. Through --url they apply at once.
 */
function directImportNote(dbPath: string, what: 'events' | 'products'): string {
  const server = readLockHolder(dbPath);
  if (server === undefined) return `stored in LMDB: a server started on this data dir serves these ${what} (to apply them to a running server at once, import with --url)`;
  return `stored in LMDB beside the server running on this data dir (pid ${server.pid}): its models get these ${what} at its next start at the latest; to apply them at once, import with --url`;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
});
