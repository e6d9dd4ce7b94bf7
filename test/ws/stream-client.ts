// A test client of GET /api/stream over the `ws` package: JSON or msgpack frames, every message kept
// in order, and waits for the next message that matches.
import { pack, unpack } from 'msgpackr';
import WebSocket from 'ws';

export type Message = Record<string, any>;

export class StreamClient {
  readonly received: Message[] = [];
  #waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  /** Messages already handed out by next(). */
  readonly #consumed = new Set<Message>();
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(
    readonly socket: WebSocket,
    readonly binary: boolean,
  ) {
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      const message = (isBinary ? unpack(data) : JSON.parse(data.toString('utf8'))) as Message;
      message.__binary = isBinary;
      message.__at = performance.now();
      this.received.push(message);
      this.#wake();
    });
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** `localAddress`: the source address (e.g. 127.0.0.2), to play one of many clients. */
  static open(url: string, key: string | undefined, options: { binary?: boolean; headers?: Record<string, string>; localAddress?: string } = {}): Promise<StreamClient> {
    const target = `${url.replace(/^http/, 'ws')}/api/stream${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}`;
    const socket = new WebSocket(target, { headers: options.headers, localAddress: options.localAddress });
    const client = new StreamClient(socket, options.binary ?? false);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  /** The HTTP status of a refused upgrade (and its body), or rejects if the upgrade succeeded. */
  static refusal(url: string, key: string | undefined, headers: Record<string, string> = {}, localAddress?: string): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
    const target = `${url.replace(/^http/, 'ws')}/api/stream${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}`;
    const socket = new WebSocket(target, { headers, localAddress });
    return new Promise((resolve, reject) => {
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body), headers: res.headers }));
      });
      socket.once('open', () => {
        socket.close();
        reject(new Error('the upgrade was accepted'));
      });
      socket.once('error', () => {});
    });
  }

  send(message: unknown): void {
    this.socket.send(this.binary ? pack(message) : JSON.stringify(message));
  }

  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  /** The first message matching `match` not handed out before (now or when it arrives). */
  next(match: (m: Message) => boolean = () => true, timeoutMs = 5_000): Promise<Message> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.received.slice(-5))}`)), timeoutMs);
      this.#waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
      this.#wake();
    });
  }

  /** Sends a message and waits for the reply carrying its ref. */
  async request(message: Record<string, unknown>, timeoutMs = 5_000): Promise<Message> {
    this.send(message);
    return this.next((m) => m.ref === message.ref, timeoutMs);
  }

  /** Messages received so far matching `match`. */
  all(match: (m: Message) => boolean): Message[] {
    return this.received.filter(match);
  }

  close(): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) this.socket.terminate();
  }

  #wake(): void {
    for (let i = 0; i < this.#waiters.length; ) {
      const waiter = this.#waiters[i]!;
      let found = -1;
      for (let j = 0; j < this.received.length; j++) {
        if (!this.#consumed.has(this.received[j]!) && waiter.match(this.received[j]!)) {
          found = j;
          break;
        }
      }
      if (found === -1) {
        i++;
        continue;
      }
      this.#consumed.add(this.received[found]!);
      this.#waiters.splice(i, 1);
      waiter.resolve(this.received[found]!);
    }
  }
}

/** Bare product ids of a recommendations message (or GET body), in order. */
export function productIds(message: { products: { id: string }[] }): string[] {
  return message.products.map((p) => p.id.replace(/^gid:\/\/[^/]+\/Product\//, ''));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
