// HTTP requests from a chosen loopback source address (127.0.0.2, 127.0.0.3, …): on Linux every
// 127/8 address is local, so one machine can play many clients of the per-address rate limits.
import { request } from 'node:http';

export interface PlainResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function fetchFrom(
  url: string,
  from: string,
  /** A header given as a list is sent as that many lines, in order. */
  init: { method?: string; key?: string; headers?: Record<string, string | string[]>; body?: string } = {},
): Promise<PlainResponse> {
  const headers: Record<string, string | string[]> = { ...init.headers };
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers, localAddress: from, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.once('error', reject);
    req.end(init.body);
  });
}
