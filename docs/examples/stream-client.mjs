// The WebSocket channel from Node 20 (the `ws` package): subscribe to a shopper's recently-viewed
// list, send a view, and watch the list change. Run from the repository: node docs/examples/stream-client.mjs
// (PAIRWISE_URL and PAIRWISE_KEY override the local demo server and its public key).
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';

const base = process.env.PAIRWISE_URL ?? 'http://127.0.0.1:8080';
const key = process.env.PAIRWISE_KEY ?? JSON.parse(readFileSync('data/demo-keys.json', 'utf8')).publicKey;
const sessionId = `s_ws_${Date.now()}`;

const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/stream?key=${key}`);
const giveUp = setTimeout(() => {
  console.error('no update within 10 s');
  process.exit(1);
}, 10_000);

ws.on('open', () => {
  ws.send(JSON.stringify({ op: 'subscribe', ref: 1, query: { strategy: 'recently-viewed', sessionId, limit: 3 } }));
  ws.send(JSON.stringify({ op: 'event', ref: 2, event: { type: 'view', productId: '1002', sessionId } }));
});

ws.on('message', (data) => {
  const message = JSON.parse(data.toString());
  if (message.op === 'ack') console.log(`ack ${message.ref}: ${message.eventId}`);
  if (message.op === 'error') console.log(`error ${message.ref}: ${message.error.code} ${message.error.detail}`);
  if (message.op !== 'recommendations') return;
  console.log(`recommendations (${message.sub}): ${message.products.map((p) => `${p.strategy}: ${p.title}`).join(', ')}`);
  // The first list is backfill (nothing viewed yet); the push after the view starts with it.
  if (message.products[0]?.strategy === 'recently-viewed') {
    clearTimeout(giveUp);
    ws.close();
  }
});
