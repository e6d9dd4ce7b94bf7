// The admin CLI: shops, keys, and imports of catalogs and event histories (npm run cli -- help).
// Exit status: 0 done, 1 failed (or an import refused records), 2 the command line is wrong.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_TOKEN_LIFETIME_S, mintCustomerToken } from '../api/customer-token.js';
import { loadConfig } from '../config.js';
import type { ShopStore } from '../store/shop-store.js';
import { compactCommand } from './compact-command.js';
import { importCommand } from './import-command.js';
import { shopifyCommand } from './shopify-command.js';
import { woocommerceCommand } from './woocommerce-command.js';
import { withDataDir } from './open-data-dir.js';
import { USAGE, UsageError } from './usage.js';

const COMMANDS = new Set(['shop create', 'shop list', 'shop origins', 'key create', 'key list', 'key revoke', 'token secret', 'token rotate', 'token mint', 'token app-proxy', 'import catalog', 'import events', 'compact', 'shopify sync', 'woocommerce sync']);

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
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
        domain: { type: 'string' },
        token: { type: 'string' },
        'api-url': { type: 'string' },
        'orders-days': { type: 'string' },
        secret: { type: 'string' },
        server: { type: 'string' },
        'server-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [group, action, ...args] = positionals;
  if (values.help || group === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (group === undefined) throw new UsageError('no command given');
  const command = `${group} ${action ?? ''}`.trim();
  if (!COMMANDS.has(command)) throw new UsageError(`unknown command "${command}"`);
  const dataDir = path.resolve(values['data-dir'] ?? loadConfig().dataDir);
  if (group === 'import') return importCommand(action as 'catalog' | 'events', args, { dataDir, url: values.url, key: values.key });
  if (group === 'compact') return compactCommand(dataDir);
  if (group === 'shopify') {
    return shopifyCommand(action, args, { dataDir, domain: values.domain, token: values.token, apiUrl: values['api-url'], ordersDays: values['orders-days'], url: values.url, key: values.key });
  }
  if (group === 'woocommerce') {
    return woocommerceCommand(action, args, { dataDir, url: values.url, key: values.key, secret: values.secret, ordersDays: values['orders-days'], server: values.server, serverKey: values['server-key'] });
  }
  if (values.url !== undefined || values.key !== undefined) throw new UsageError('--url and --key go with import and the platforms\' sync only');
  await withDataDir(dataDir, (_dbs, shops) => run(command, args, values, shops));
  return 0;
}

type Values = { origins?: string; kind?: string; label?: string; url?: string; key?: string; ttl?: string };

function origins(list: string | undefined): string[] {
  return (list ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** A failure that is not the command line's fault: the message alone, exit status 1. */
function fail(message: string): never {
  throw new Error(message);
}

async function run(command: string, args: string[], values: Values, shops: ShopStore): Promise<void> {
  const shopId = args[0];
  const needShop = () => {
    if (shopId === undefined) throw new UsageError(`${command} needs a shop id`);
    if (shops.getShop(shopId) === undefined) fail(`unknown shop "${shopId}"`);
    return shopId;
  };
  switch (command) {
    case 'shop create': {
      if (shopId === undefined) throw new UsageError('shop create needs a shop id');
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
      const kind = values.kind;
      if (kind !== 'public' && kind !== 'secret') throw new UsageError('key create needs --kind public or --kind secret');
      console.log(await shops.createKey(needShop(), kind, values.label));
      return;
    }
    case 'key list':
      for (const k of shops.listKeys(needShop())) {
        console.log(`${k.hash.slice(0, 16)}\t${k.kind}\t${new Date(k.createdAt).toISOString()}\t${k.label ?? ''}`);
      }
      return;
    case 'key revoke': {
      const prefix = args[0];
      if (prefix === undefined || prefix.length < 8) throw new UsageError('key revoke needs at least 8 characters of a fingerprint');
      const matches = shops.listShops().flatMap((id) => shops.listKeys(id)).filter((k) => k.hash.startsWith(prefix));
      if (matches.length !== 1) fail(`${matches.length} keys match "${prefix}"`);
      await shops.revokeKey(matches[0]!.hash);
      console.log(`revoked ${prefix} (a running server forgets it within 30 s)`);
      return;
    }
    case 'token secret': {
      // Reading changes nothing, however often it is run: only a shop that has none gets its first.
      const id = needShop();
      const current = shops.getShop(id)!.signingSecrets?.[0];
      console.log(current ?? (await shops.rotateSigningSecret(id)));
      console.error(`the signing secret of "${id}": give it to the server that renders your storefront (it mints customer tokens)`);
      return;
    }
    case 'token rotate': {
      const id = needShop();
      console.log(await shops.rotateSigningSecret(id));
      console.error(
        `a new signing secret of "${id}": give it to the server that renders your storefront. Tokens of the one before it stay valid until the next rotation; tokens of any older one no longer verify`,
      );
      return;
    }
    case 'token mint': {
      const customerId = args[1];
      if (customerId === undefined) throw new UsageError('token mint needs a customerId');
      const ttl = Number(values.ttl ?? 3600);
      if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_LIFETIME_S) throw new UsageError(`--ttl must be whole seconds from 1 to ${MAX_TOKEN_LIFETIME_S}`);
      const id = needShop();
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
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      console.error(`error: ${(error as Error).message}`);
      process.exitCode = 1;
    }
  },
);
