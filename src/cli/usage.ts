// The CLI's usage text, and the one error that shows it: a command line the CLI cannot run.

export const USAGE = `usage: npm run cli -- <command> [options]

  shop create <shopId> [--origins <origin,...>]   create a shop and print its first public and secret key
  shop list                                       list shops
  shop origins <shopId> [<origin,...>]            set the browser origins allowed for the shop (none = any)
  key create <shopId> --kind public|secret [--label <text>]
  key list <shopId>                               key fingerprints, kinds and labels (keys are never stored)
  key revoke <fingerprint>                        revoke a key by the fingerprint shown by key list
  token secret <shopId>                           print the shop's customer-token signing secret, the same each time (a shop without one gets its first)
  token rotate <shopId>                           add a new signing secret and print it: the previous one stays valid until the next rotation, older ones stop
  token mint <shopId> <customerId> [--ttl <s>]    print a customer token (default 3600 s, at most 31 days) signed with the newest secret
  token app-proxy <shopId> [<shared secret>]      set (or, without one, remove) the shop's Shopify app proxy secret
  import catalog <shopId> <file>                  products: .json, .ndjson/.jsonl or .csv (optionally .gz)
  import events <shopId> <file>                   events: .ndjson/.jsonl, .json or .csv (optionally .gz)
  import catalog|events [<shopId>] <file> --url <url> --key <sk_…>
                                                  the same through a running server's API: the key names the shop
  compact                                         rewrite the data dir's LMDB file with only the pages in use (the
                                                  server stopped): erased and pruned data leaves its free pages
  shopify sync <shopId> --domain <shop>.myshopify.com --token <shpat_…> [--orders-days <n>] [--api-url <url>]
                                                  the shop's collections, products and last n (default 90) days of
                                                  orders from Shopify's Admin API; resumable, stores nothing twice
                                                  (with --url and --key: through a running server's API)
  woocommerce sync <shopId> --url <https://shop.example> --key <ck_…> --secret <cs_…> [--orders-days <n>]
                                                  the store's products and last n (default 90) days of paid orders
                                                  from its REST API; resumable, stores nothing twice (with
                                                  --server <url> --server-key <sk_…>: through a running server's API)

options:
  --data-dir <dir>   data directory (default: PAIRWISE_DATA_DIR or ./data); LMDB lives in <dir>/db
  --url <url>        import through a running server's API (live at once) instead of into LMDB:
                     the server's address (http://127.0.0.1:8080) or its API's (…/api)
                     (stored straight into LMDB, a running server's models get them at its next start)
  --key <sk_…>       the shop's secret key, with --url
  --api-url <url>    the Admin API to read (default https://<domain>/admin/api/2026-10)

Imports judge every record alone: each refused one is printed on stderr as <file>:<line>: <reason>,
the rest are stored, and the exit status is 1 if any was refused.
`;

/** The command line is wrong: the message is printed with the usage, exit status 2. */
export class UsageError extends Error {}
