// Makes gRPC calls with @grpc/grpc-js, a client ProtocolBench did not write, from nothing but the service's .proto, and
// prints one JSON line per call: { name, code, details } on an error, { name, code: "OK", reply } otherwise.
//
//   node calls.mjs http://127.0.0.1:5200 calls.json     (h2c, HTTP/2 prior knowledge)
//   node calls.mjs https://localhost:5201 calls.json    (TLS, trusting only certs/protocolbench.crt)
//
// calls.json: [{ "name": "...", "service": "Payloads", "method": "GetInts", "request": { "count": 100001 } }, ...]
// Options: --proto PATH (default ../../src/Grpc.Service/Protos/protocolbench.proto), --cert PATH (default
// ../../certs/protocolbench.crt). Every call has a 10 s deadline. Exit code 2 for bad usage, 0 otherwise.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const here = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    proto: { type: 'string', default: here('../../src/Grpc.Service/Protos/protocolbench.proto') },
    cert: { type: 'string', default: here('../../certs/protocolbench.crt') },
  },
});
if (positionals.length !== 2) {
  console.error('Usage: node calls.mjs <http://host:port | https://host:port> <calls.json>');
  process.exit(2);
}

const address = new URL(positionals[0]);
const credentials = address.protocol === 'https:'
  ? grpc.credentials.createSsl(readFileSync(flags.cert)) // this root only; the host name is checked as usual
  : grpc.credentials.createInsecure();
const contract = grpc.loadPackageDefinition(
  protoLoader.loadSync(flags.proto, { longs: Number, enums: String, defaults: true })).protocolbench.v1;
const options = { 'grpc.max_receive_message_length': 16 * 1024 * 1024 };
const clients = new Map();
const client = (service) => {
  if (!clients.has(service)) {
    clients.set(service, new contract[service](address.host, credentials, options));
  }
  return clients.get(service);
};

const call = ({ service, method, request }) => new Promise((resolve) => {
  client(service)[method](request, { deadline: Date.now() + 10_000 }, (error, reply) => resolve(error
    ? { code: grpc.status[error.code], details: error.details }
    : { code: 'OK', reply }));
});

for (const spec of JSON.parse(readFileSync(positionals[1], 'utf8'))) {
  console.log(JSON.stringify({ name: spec.name, ...await call(spec) }));
}

clients.forEach((c) => c.close());
