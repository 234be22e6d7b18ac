// Makes SignalR hub calls with @microsoft/signalr, a client ProtocolBench did not write, over a WebSocket (negotiation
// skipped, as ProtocolBench's own client connects), and prints one JSON line per call: { name, code, message } on an
// error, { name, code: "OK", result } otherwise; a file (GetTextFile, GetPdf, StreamPdf) as { length, sha256 }.
//
//   node calls.mjs http://127.0.0.1:5400 calls.json                         (JSON hub protocol)
//   node calls.mjs https://localhost:5401 calls.json --protocol messagepack  (TLS, trusting only certs/protocolbench.crt)
//
// calls.json: [{ "name": "...", "method": "GetInts", "args": [100001], "stream": false }, ...]; "send": true sends the call
// without waiting for an answer (connection.send: an invocation with no id) and prints { name, code: "SENT" }.
// Options: --protocol json|messagepack (default json), --cert PATH (default ../../certs/protocolbench.crt). Every call
// has a 10 s limit. Exit code 2 for bad usage, 1 when the hub cannot be reached, 0 otherwise.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as signalR from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import WebSocket from 'ws';

const here = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    protocol: { type: 'string', default: 'json' },
    cert: { type: 'string', default: here('../../certs/protocolbench.crt') },
  },
});
if (positionals.length !== 2 || !['json', 'messagepack'].includes(flags.protocol)) {
  console.error('Usage: node calls.mjs <http://host:port | https://host:port> <calls.json> [--protocol json|messagepack]');
  process.exit(2);
}

// The socket trusts exactly the project's certificate (ws passes `ca` to TLS; the host name is checked as usual).
const ca = positionals[0].startsWith('https:') ? readFileSync(flags.cert) : undefined;
class TrustingWebSocket extends WebSocket {
  constructor(url, protocols, options) {
    super(url, protocols, { ...options, ca });
  }
}

const builder = new signalR.HubConnectionBuilder()
  .withUrl(new URL('/hub', positionals[0]).toString(), {
    transport: signalR.HttpTransportType.WebSockets,
    skipNegotiation: true,
    WebSocket: TrustingWebSocket,
  })
  .configureLogging(signalR.LogLevel.None);
if (flags.protocol === 'messagepack') {
  builder.withHubProtocol(new MessagePackHubProtocol());
}
const connection = builder.build();

// JSON carries bytes as base64 text, MessagePack as binary.
const bytes = (value) => (typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.from(value));
const file = (data) => ({ length: data.length, sha256: createHash('sha256').update(data).digest('hex') });

const collect = (method, args) => new Promise((resolve, reject) => {
  const chunks = [];
  connection.stream(method, ...args).subscribe({
    next: (chunk) => chunks.push(bytes(chunk)),
    error: reject,
    complete: () => resolve(file(Buffer.concat(chunks))),
  });
});

// The timer is cleared once the call settles: a pending one would keep node running until it fired.
const within = (promise, ms) => {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(timer));
};

// The service leads a hub error with its code and field: "INVALID_ARGUMENT count: message", nothing before them.
const failure = (error) => {
  const own = /^([A-Z_]+) [^:]*: (.*)$/s.exec(error.message ?? '');
  return own ? { code: own[1], message: own[2] } : { code: 'ERROR', message: String(error.message ?? error) };
};

const call = async ({ method, args = [], stream = false, send = false }) => {
  try {
    if (send) {
      await within(connection.send(method, ...args), 10_000);
      return { code: 'SENT' };
    }
    if (stream) {
      return { code: 'OK', result: await within(collect(method, args), 10_000) };
    }
    const result = await within(connection.invoke(method, ...args), 10_000);
    const data = result?.data ?? result?.Data;
    return { code: 'OK', result: data === undefined ? result : { ...file(bytes(data)), name: result.name ?? result.Name } };
  } catch (error) {
    return failure(error);
  }
};

try {
  await within(connection.start(), 10_000);
} catch (error) {
  console.error(`cannot reach the hub at ${positionals[0]}: ${error.message}`);
  process.exit(1);
}

for (const spec of JSON.parse(readFileSync(positionals[1], 'utf8'))) {
  console.log(JSON.stringify({ name: spec.name, ...await call(spec) }));
}

await connection.stop();
