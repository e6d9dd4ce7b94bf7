// The baseline every HTTP benchmark divides by: a uWS hello-world answering a fixed small JSON
// body on every path, run as its own (pinned) process like the service. Prints its ready line.
import uWS from 'uWebSockets.js';
import { announceReady, assertNativeUws, stopOnSignalOrOrphan } from './support/ready-line.js';

const BODY = '{"message":"Hello, World!"}';

assertNativeUws();
const app = uWS.App().any('/*', (res) => {
  res.writeHeader('content-type', 'application/json').end(BODY);
});

app.listen('127.0.0.1', Number(process.env.PORT ?? 0), (token) => {
  if (token === false) {
    console.error('baseline-server: cannot listen');
    process.exit(1);
  }
  announceReady({ port: uWS.us_socket_local_port(token), body: BODY });
  stopOnSignalOrOrphan(async () => uWS.us_listen_socket_close(token));
});
