// A gRPC client ProtocolBench did not write: grpc-js, driven by nothing but the service's .proto file.
// Given only an address, it calls every kind of operation once, prints what it got and checks it against
// docs/methodology.md and docs/limits-and-errors.md; exit code 1 if any check failed.
// Given a file of calls too, it makes those calls and prints one JSON line each: { name, code, details } on an error,
// { name, code: "OK", reply } otherwise (GrpcJsClientTests sends its bad arguments this way); exit code 0.
//
//   npm ci                                                 (in this folder, once)
//   node node-client.mjs http://127.0.0.1:5200             (h2c, HTTP/2 prior knowledge)
//   node node-client.mjs https://localhost:5201            (TLS, trusting only certs/protocolbench.crt)
//   node node-client.mjs http://127.0.0.1:5200 calls.json  (calls.json: [{ "name": "...", "service": "Payloads",
//                                                           "method": "GetInts", "request": { "count": 100001 } }, ...])
//
// Options: --proto PATH (default ../Protos/protocolbench.proto), --cert PATH (default ../../../certs/protocolbench.crt).
// Every call has a 30 s deadline.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const here = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    proto: { type: 'string', default: here('../Protos/protocolbench.proto') },
    cert: { type: 'string', default: here('../../../certs/protocolbench.crt') },
  },
});
if (positionals.length > 2) {
  console.error('Usage: node node-client.mjs [http://host:port | https://host:port] [calls.json]');
  process.exit(2);
}
const address = new URL(positionals[0] ?? 'http://127.0.0.1:5200');
const credentials = address.protocol === 'https:'
  ? grpc.credentials.createSsl(readFileSync(flags.cert)) // this root only; the host name is checked as usual
  : grpc.credentials.createInsecure();
const channelOptions = { 'grpc.max_receive_message_length': 16 * 1024 * 1024 };
const loaderOptions = { longs: Number, enums: String, defaults: true };

const contract = grpc.loadPackageDefinition(protoLoader.loadSync(flags.proto, loaderOptions)).protocolbench.v1;
// The two standard services, declared with only the fields used here (grpc/grpc-proto health/v1, reflection/v1).
const standard = grpc.loadPackageDefinition(protoLoader.fromJSON({
  nested: {
    grpc: {
      nested: {
        health: {
          nested: {
            v1: {
              nested: {
                HealthCheckRequest: { fields: { service: { type: 'string', id: 1 } } },
                HealthCheckResponse: {
                  fields: { status: { type: 'ServingStatus', id: 1 } },
                  nested: { ServingStatus: { values: { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } } },
                },
                Health: { methods: { Check: { requestType: 'HealthCheckRequest', responseType: 'HealthCheckResponse' } } },
              },
            },
          },
        },
        reflection: {
          nested: {
            v1: {
              nested: {
                ServerReflectionRequest: { fields: { host: { type: 'string', id: 1 }, listServices: { type: 'string', id: 7 } } },
                ServerReflectionResponse: {
                  fields: {
                    listServicesResponse: { type: 'ListServiceResponse', id: 6 },
                    errorResponse: { type: 'ErrorResponse', id: 7 },
                  },
                },
                ListServiceResponse: { fields: { service: { rule: 'repeated', type: 'ServiceResponse', id: 1 } } },
                ServiceResponse: { fields: { name: { type: 'string', id: 1 } } },
                ErrorResponse: { fields: { errorCode: { type: 'int32', id: 1 }, errorMessage: { type: 'string', id: 2 } } },
                ServerReflection: {
                  methods: {
                    ServerReflectionInfo: {
                      requestType: 'ServerReflectionRequest',
                      responseType: 'ServerReflectionResponse',
                      requestStream: true,
                      responseStream: true,
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
}, loaderOptions)).grpc;

const target = address.host;
const payloads = new contract.Payloads(target, credentials, channelOptions);
const authors = new contract.Authors(target, credentials, channelOptions);
const health = new standard.health.v1.Health(target, credentials, channelOptions);
const reflection = new standard.reflection.v1.ServerReflection(target, credentials, channelOptions);

// Every call has a deadline.
const deadline = () => ({ deadline: Date.now() + 30_000 });
const unary = (client, method, request = {}) => new Promise((resolve, reject) =>
  client[method](request, deadline(), (error, reply) => (error ? reject(error) : resolve(reply))));
const statusName = (code) => Object.keys(grpc.status).find((name) => grpc.status[name] === code);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

let failed = 0;
function check(label, actual, expected) {
  const ok = expected === undefined || actual === expected;
  failed += ok ? 0 : 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}: ${actual}${ok || expected === undefined ? '' : ` (expected ${expected})`}`);
}

async function expectError(label, promise, code) {
  try {
    await promise;
    check(label, 'succeeded', code);
  } catch (error) {
    check(`${label} ("${error.details}")`, statusName(error.code), code);
  }
}

function listServices() {
  return new Promise((resolve, reject) => {
    const call = reflection.ServerReflectionInfo(deadline());
    call.on('data', (reply) => {
      resolve(reply.listServicesResponse?.service.map((s) => s.name) ?? []);
      call.end();
    });
    call.on('error', reject);
    call.write({ host: '', listServices: '*' });
  });
}

// With a file of calls: each call's outcome as one JSON line, in order; the caller checks them.
async function makeCalls(file) {
  const services = { Payloads: payloads, Authors: authors };
  for (const { name, service, method, request } of JSON.parse(readFileSync(file, 'utf8'))) {
    if (typeof services[service]?.[method] !== 'function') {
      throw new Error(`${name}: no method ${service}.${method} (services: Payloads, Authors; methods as in the .proto)`);
    }
    const outcome = await unary(services[service], method, request).then(
      (reply) => ({ code: 'OK', reply }),
      (error) => ({ code: statusName(error.code), details: error.details }));
    console.log(JSON.stringify({ name, ...outcome }));
  }
}

async function checkEveryKindOfCall() {
  console.log(`gRPC ${address.protocol === 'https:' ? 'TLS' : 'h2c'} ${target}, proto ${flags.proto}`);
  check('reflection services', (await listServices()).sort().join(', '));
  check('health Check ""', (await unary(health, 'Check', { service: '' })).status, 'SERVING');
  check('health Check protocolbench.v1.Authors', (await unary(health, 'Check', { service: 'protocolbench.v1.Authors' })).status, 'SERVING');

  for (const [phrase, count] of [['Author - 1', 3112], ['Author - 100', 111], ['Author - 1000', 11]]) {
    check(`Search "${phrase}" authors`, (await unary(authors, 'Search', { phrase })).authors.length, count);
  }
  const first = (await unary(authors, 'List', { skip: 0, take: 1 })).authors[0];
  check('List skip 0 take 1', `${first.id} ${first.name} ${first.country}, ${first.books.length} book(s)`);
  await expectError('Get id 999999', unary(authors, 'Get', { id: 999999 }), 'NOT_FOUND');

  check('Clone "Hello World!" x 1', (await unary(payloads, 'Clone', { text: 'Hello World!', count: 1 })).text, 'Hello World!');
  await expectError('Clone count 300000', unary(payloads, 'Clone', { text: 'Hello World!', count: 300000 }), 'INVALID_ARGUMENT');
  check('GetIntMax', (await unary(payloads, 'GetIntMax')).value, 2147483647);
  const ints = (await unary(payloads, 'GetInts', { count: 10000 })).values;
  check('GetInts 10000 values', ints.length, 10000);
  check('GetInts last value', ints.at(-1), 9999);
  const sample = await unary(payloads, 'GetSample');
  check('GetSample', `${sample.name}, ${sample.books.map((b) => b.title).join(' / ')}`);

  const text = await unary(payloads, 'GetTextFile');
  check(`GetTextFile ${text.name} bytes`, text.data.length);
  const pdf = await unary(payloads, 'GetPdf');
  check(`GetPdf ${pdf.name} (${pdf.contentType}) bytes`, pdf.data.length, 3565158);
  check('GetPdf sha256', sha256(pdf.data), '542c1e8524ff7ed33203ccdc33d2df38f79c7ce8530d0dedb4b3122b099c1d74');

  const chunks = [];
  let announced = 0;
  for await (const chunk of payloads.StreamPdf({}, deadline())) {
    announced ||= chunk.totalLength;
    chunks.push(chunk.data);
  }
  const streamed = Buffer.concat(chunks);
  check(`StreamPdf ${chunks.length} chunks, total_length ${announced}, bytes`, streamed.length, announced);
  check('StreamPdf sha256', sha256(streamed), '542c1e8524ff7ed33203ccdc33d2df38f79c7ce8530d0dedb4b3122b099c1d74');
}

const calls = positionals[1];
try {
  await (calls ? makeCalls(calls) : checkEveryKindOfCall());
} catch (error) {
  // An unexpected failure (server down, wrong certificate, ...): one line, not a stack trace.
  failed += 1;
  console.log(`FAIL ${error.code === undefined ? error.message : `${statusName(error.code)}: ${error.details}`}`);
} finally {
  for (const client of [payloads, authors, health, reflection]) {
    client.close();
  }
}
if (!calls) {
  console.log(failed === 0 ? 'all checks passed' : `${failed} check(s) failed`);
}
process.exitCode = failed === 0 ? 0 : 1;
