// npm run cluster: a local Pairwise cluster on loopback, to try the replicated log (docs/cluster.md).
// Starts 3 nats-server processes clustered with JetStream (data under data/cluster/nats-N), then 3
// Pairwise nodes on the stream they share (data under data/cluster/node-N), prints every address and
// the demo keys, prefixes each child's log lines with its name, and on Ctrl-C (or SIGTERM) stops the
// nodes, then the NATS servers, and waits for every one of them to exit.
//
// Ports, consecutive from each first one: PAIRWISE_CLUSTER_PORT (nodes' HTTP, 8080),
// PAIRWISE_CLUSTER_NATS_PORT (NATS clients, 4222), PAIRWISE_CLUSTER_ROUTE_PORT (NATS cluster routes,
// 6222). PAIRWISE_CLUSTER_DIR moves the data (data/cluster). Every other PAIRWISE_* variable reaches
// every node as it is; PAIRWISE_SERVERS is 1 unless set.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

const SIZE = 3;
const HOST = '127.0.0.1';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = path.resolve(process.env.PAIRWISE_CLUSTER_DIR ?? path.join(root, 'data', 'cluster'));
/** How long a stop waits for a child after SIGTERM before it sends SIGKILL. */
const STOP_WAIT_MS = 30_000;
/** How long the NATS cluster has to elect its JetStream leader, and a node to start (a first start seeds the demo store). */
const NATS_READY_MS = 30_000;
const NODE_READY_MS = 10 * 60_000;

function port(variable, fallback) {
  const raw = process.env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535 - SIZE) fail(`${variable} must be a port number, got "${raw}"`);
  return value;
}

function fail(message) {
  console.error(`cluster: ${message}`);
  process.exit(1);
}

/** The nats-server binary: PAIRWISE_NATS_SERVER, else nats-server on PATH or in /usr/sbin (where Debian puts it). */
function natsServerBinary() {
  const candidates = process.env.PAIRWISE_NATS_SERVER ? [process.env.PAIRWISE_NATS_SERVER] : ['nats-server', '/usr/sbin/nats-server'];
  for (const candidate of candidates) {
    if (spawnSync(candidate, ['--version'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  fail(`nats-server not found (tried ${candidates.join(', ')}). Install it (Debian, Ubuntu: sudo apt-get install nats-server; or a release from https://github.com/nats-io/nats-server/releases) or name it in PAIRWISE_NATS_SERVER`);
}

/** Resolves if `port` can be listened on at HOST, else rejects naming the variable that moves it. */
function checkFree(portNumber, variable) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', () => reject(new Error(`port ${portNumber} on ${HOST} is in use: choose other ports with ${variable}`)));
    server.listen(portNumber, HOST, () => server.close(resolve));
  });
}

const httpPort = port('PAIRWISE_CLUSTER_PORT', 8080);
const natsPort = port('PAIRWISE_CLUSTER_NATS_PORT', 4222);
const routePort = port('PAIRWISE_CLUSTER_ROUTE_PORT', 6222);
const natsServers = Array.from({ length: SIZE }, (_, i) => ({ name: `nats-${i + 1}`, clientPort: natsPort + i, routePort: routePort + i }));
const natsUrls = natsServers.map((s) => `nats://${HOST}:${s.clientPort}`);
const nodes = Array.from({ length: SIZE }, (_, i) => ({ name: `node-${i + 1}`, port: httpPort + i, dataDir: path.join(dir, `node-${i + 1}`) }));

/** Every child, for the stop: { name, child, exited }. */
const children = [];
let stopping = false;

/** Starts a child whose output lines are printed with its name in front. */
function startChild(name, command, args, env) {
  // Its own process group: a terminal's Ctrl-C reaches this script alone, which stops the nodes
  // before the NATS servers (a node's shutdown still talks to NATS).
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const entry = { name, child, exited, lines: [] };
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      for (const listen of entry.lines) listen(line);
      console.log(`[${name}] ${line}`);
    });
  }
  void exited.then(({ code, signal }) => {
    if (stopping) return;
    console.log(`cluster: ${name} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); the others go on`);
    if (entry.restart !== undefined) console.log(`cluster: to start it again by hand (Ctrl-C here does not stop it then): ${entry.restart}`);
  });
  children.push(entry);
  return entry;
}

/** The nats-server configuration of server `i`: JetStream on file, clustered with the other two by routes. */
function natsConfig(server) {
  const routes = natsServers.map((s) => `nats://${HOST}:${s.routePort}`).join(', ');
  return [
    `# Written by scripts/cluster.mjs for a local cluster (docs/examples/cluster/ has a deployment's).`,
    `server_name: ${server.name}`,
    `listen: ${HOST}:${server.clientPort}`,
    `jetstream {`,
    `  store_dir: "${path.join(dir, server.name)}"`,
    `}`,
    `cluster {`,
    `  name: pairwise-local`,
    `  listen: ${HOST}:${server.routePort}`,
    `  routes: [${routes}]`,
    `}`,
    '',
  ].join('\n');
}

/**
 * Resolves once a client reaches the cluster, JetStream answers (its meta leader elected) and every
 * stream it holds answers too: after a restart each stream elects its own leader, seconds after the
 * meta leader, and a node that asked before would be told "timeout".
 */
async function natsReady() {
  const deadline = Date.now() + NATS_READY_MS;
  let last;
  while (Date.now() < deadline) {
    try {
      const nc = await connect({ servers: natsUrls, timeout: 1_000, maxReconnectAttempts: 0 });
      try {
        const jsm = await jetstreamManager(nc, { timeout: 1_000 });
        await jsm.getAccountInfo();
        for await (const name of jsm.streams.names()) await jsm.streams.info(name);
        return;
      } finally {
        await nc.close();
      }
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`the NATS cluster did not answer within ${NATS_READY_MS / 1000} s: ${last?.message ?? last}`);
}

/** Resolves with the node's address once it prints that it listens; rejects if it exits first. */
function listening(entry) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry.name} did not start within ${NODE_READY_MS / 1000} s`)), NODE_READY_MS);
    entry.lines.push((line) => {
      const match = /^Pairwise listening on (http:\/\/\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void entry.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${entry.name} exited (${signal ?? `code ${code}`}) before it listened`));
    });
  });
}

function startNode(node) {
  mkdirSync(node.dataDir, { recursive: true });
  const env = {
    ...process.env,
    MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ ?? '1048576',
    HOST,
    PORT: String(node.port),
    PAIRWISE_DATA_DIR: node.dataDir,
    PAIRWISE_NATS: natsUrls.join(','),
    PAIRWISE_SERVERS: process.env.PAIRWISE_SERVERS ?? '1',
  };
  const entry = startChild(node.name, process.execPath, [path.join(root, 'dist', 'src', 'main.js')], env);
  entry.restart = `HOST=${HOST} PORT=${node.port} PAIRWISE_DATA_DIR=${node.dataDir} PAIRWISE_NATS=${env.PAIRWISE_NATS} PAIRWISE_SERVERS=${env.PAIRWISE_SERVERS} npm start`;
  return entry;
}

/** SIGTERM to each of `entries` still running, SIGKILL after STOP_WAIT_MS; resolves once all exited. */
async function stopAll(entries) {
  await Promise.all(entries.map(async ({ name, child, exited }) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      console.log(`cluster: ${name} still running ${STOP_WAIT_MS / 1000} s after SIGTERM: SIGKILL`);
      child.kill('SIGKILL');
    }, STOP_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }));
}

/** Stops the nodes first (they leave the NATS cluster cleanly), then the NATS servers; exits. */
async function stop(signal, code = 0) {
  if (stopping) return;
  stopping = true;
  console.log(`cluster: ${signal}: stopping the nodes, then the NATS servers`);
  await stopAll(children.filter((c) => c.name.startsWith('node-')));
  await stopAll(children.filter((c) => c.name.startsWith('nats-')));
  console.log('cluster: every process has exited');
  process.exit(code);
}

async function main() {
  const natsServer = natsServerBinary();
  if (!existsSync(path.join(root, 'dist', 'src', 'main.js'))) fail('dist/src/main.js is missing: run npm run build (npm run cluster builds first)');
  for (const s of natsServers) {
    await checkFree(s.clientPort, 'PAIRWISE_CLUSTER_NATS_PORT');
    await checkFree(s.routePort, 'PAIRWISE_CLUSTER_ROUTE_PORT');
  }
  for (const node of nodes) await checkFree(node.port, 'PAIRWISE_CLUSTER_PORT');
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGHUP', () => void stop('SIGHUP'));

  mkdirSync(dir, { recursive: true });
  for (const server of natsServers) {
    const file = path.join(dir, `${server.name}.conf`);
    writeFileSync(file, natsConfig(server));
    startChild(server.name, natsServer, ['-c', file], process.env);
  }
  await natsReady();

  // Node 1 alone first: on a new cluster it seeds the demo store. The others then take its keys
  // file: started with the demo store there, a node prints and serves the same keys instead of
  // adding a pair of its own (and two nodes seeding at once would each find no demo shop).
  const first = startNode(nodes[0]);
  const addresses = [await listening(first)];
  const keysFile = path.join(nodes[0].dataDir, 'demo-keys.json');
  if (existsSync(keysFile)) for (const node of nodes.slice(1)) {
    mkdirSync(node.dataDir, { recursive: true });
    copyFileSync(keysFile, path.join(node.dataDir, 'demo-keys.json'));
  }
  const rest = nodes.slice(1).map(startNode);
  addresses.push(...(await Promise.all(rest.map(listening))));

  const lines = ['', 'Pairwise cluster on loopback (Ctrl-C stops it all):'];
  natsServers.forEach((s, i) => lines.push(`  ${s.name}: ${natsUrls[i]}   data: ${path.join(dir, s.name)}`));
  nodes.forEach((node, i) => lines.push(`  ${node.name}: ${addresses[i]}   data: ${node.dataDir}`));
  lines.push(`  PAIRWISE_NATS=${natsUrls.join(',')}`);
  if (existsSync(keysFile)) {
    const keys = JSON.parse(readFileSync(keysFile, 'utf8'));
    lines.push(`  demo store "${keys.shopId}" (every node): public key ${keys.publicKey}`, `                                 secret key ${keys.secretKey}`);
    lines.push(`  try: curl -H "Authorization: Bearer ${keys.publicKey}" "${addresses[SIZE - 1]}/api/recommendations?strategy=trending&limit=3"`);
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((error) => {
  console.error(`cluster: ${error.message}`);
  void stop('start failed', 1);
});
