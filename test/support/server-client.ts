// Clients of a server whose processes share one port (PAIRWISE_SERVERS): each keeps one keep-alive
// connection, so whichever process the kernel gave it answers every request it makes.
import { Agent, request } from 'node:http';
import { expect } from 'vitest';

export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  text: string;
  type: string;
}

export class ServerClient {
  readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  /** The process that answered /healthz on this connection (clientPerServer). */
  pid = 0;

  constructor(
    readonly baseUrl: string,
    readonly defaultKey: string,
  ) {}

  call(method: string, path: string, body?: unknown, key = this.defaultKey): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(new URL(this.baseUrl + path), { method, agent: this.agent, headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text, type: String(res.headers['content-type']), json: text.startsWith('{') ? JSON.parse(text) : undefined }));
      });
      req.once('error', reject);
      req.end(payload);
    });
  }
}

/** Clients until one talks to each of two server processes (the kernel spreads new connections over them). */
export async function clientPerServer(baseUrl: string, defaultKey: string): Promise<[ServerClient, ServerClient]> {
  const byPid = new Map<number, ServerClient>();
  for (let i = 0; i < 200 && byPid.size < 2; i++) {
    const client = new ServerClient(baseUrl, defaultKey);
    client.pid = (await client.call('GET', '/healthz')).json.pid;
    if (!byPid.has(client.pid)) byPid.set(client.pid, client);
    else client.agent.destroy();
  }
  expect(byPid.size).toBe(2);
  return [...byPid.values()] as [ServerClient, ServerClient];
}
