// Live subscribers on `ws`: connections to GET /api/stream that each subscribe a list of queries
// (JSON text frames) and then only listen, counting the lists the server pushes.
import WebSocket from 'ws';

export interface Subscribers {
  /** Lists pushed after the subscriptions' first answers. */
  readonly pushes: number;
  /** The product ids of every subscription's first answer. */
  readonly firstLists: readonly string[][];
  close(): void;
}

interface Reply {
  op: string;
  ref?: number;
  products?: { id: string }[];
  error?: { code: string; detail?: string };
}

/** Opens one connection per entry of `queries`, subscribes each of its queries, and resolves once every subscription has answered. */
export async function subscribe(url: string, queries: readonly (readonly Record<string, unknown>[])[]): Promise<Subscribers> {
  let pushes = 0;
  const firstLists: string[][] = [];
  const sockets = await Promise.all(
    queries.map(
      (list) =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(url, { perMessageDeflate: false });
          let answered = 0;
          socket.once('error', reject);
          socket.once('open', () => list.forEach((query, ref) => socket.send(JSON.stringify({ op: 'subscribe', ref, query }))));
          socket.on('message', (data: Buffer) => {
            const reply = JSON.parse(data.toString('utf8')) as Reply;
            if (reply.op === 'error') {
              reject(new Error(`subscribe: ${reply.error?.code} ${reply.error?.detail ?? ''}`));
            } else if (reply.op === 'recommendations') {
              if (reply.ref === undefined) {
                pushes++;
                return;
              }
              firstLists.push((reply.products ?? []).map((p) => p.id));
              if (++answered === list.length) resolve(socket);
            }
          });
        }),
    ),
  );
  return {
    get pushes() {
      return pushes;
    },
    firstLists,
    close() {
      for (const socket of sockets) socket.close();
    },
  };
}
