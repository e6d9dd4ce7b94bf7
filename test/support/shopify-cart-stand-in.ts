// A storefront stand-in with Shopify's Ajax cart API (/cart.js, /cart/add.js, /cart/change.js,
// /cart/update.js, under any route root such as /fr/), answering as Shopify does (the cart), for the
// widget's browser tests: it records every attribute update and cart read, and serves the fixture's
// pages for everything else.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CartStandIn {
  readonly url: string;
  /** Every POST to a /cart/update.js, in order. */
  readonly updates: { path: string; contentType: string | undefined; body: Record<string, any> }[];
  /** The cart's product ids at every GET of /cart.js, comma-joined. */
  readonly reads: string[];
  /** Sets the cart's products (one of each). */
  setCart(productIds: number[]): void;
  close(): Promise<void>;
}

/** `pages`: the HTML of a path, or undefined for a 404. */
export async function startCartStandIn(pages: (pathname: string) => string | undefined): Promise<CartStandIn> {
  let cart: number[] = [];
  const updates: CartStandIn['updates'] = [];
  const reads: string[] = [];
  const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const cartBody = (attributes: unknown = {}) => ({ token: 'c1', attributes, items: cart.map((id) => ({ id: id * 100, product_id: id, quantity: 1 })) });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const { pathname } = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && pathname.endsWith('/cart.js')) {
      reads.push(cart.join(','));
      return json(res, cartBody());
    }
    const change = /\/cart\/(update|add|change)\.js$/.exec(pathname)?.[1];
    if (req.method === 'POST' && change !== undefined) {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      req.on('end', () => {
        const body = JSON.parse(text) as Record<string, any>;
        if (change === 'update') {
          updates.push({ path: pathname, contentType: req.headers['content-type'], body });
          return json(res, cartBody(body.attributes));
        }
        const { product, quantity } = body as { product: number; quantity: number };
        cart = quantity > 0 ? [...cart.filter((id) => id !== product), product] : cart.filter((id) => id !== product);
        json(res, cartBody());
      });
      return;
    }
    const html = pages(pathname);
    if (html === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    updates,
    reads,
    setCart: (ids) => (cart = ids),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
