// One cell measured through Node.js clients: undici (HTTP/1.1) for REST and GraphQL, @grpc/grpc-js for gRPC, and
// @microsoft/signalr for SignalR's hub (JSON or MessagePack, over a WebSocket by ws).
//
// ProtocolBench's benchmark command (--client node) starts this with node, after `npm ci` in this folder, and writes one
// job as a line of JSON on its standard input: the service, the request's bytes exactly as ProtocolBench's own client
// sends them, and how many calls to make. Each call is timed from the request to the answer decoded as a Node program
// reads it (JSON.parse of the body; the reply as @grpc/proto-loader's deserializer gives it to a grpc-js client; the
// hub method's result as the hub protocol decodes it). A read's answers must all equal the first, whose bytes go back
// to the harness to be checked as the .NET client's answers are (a hub's result as JSON, its bytes as base64); a
// create's differ (a new id each time), so every one goes back. Lines written:
//
//     answer BASE64       the first answer's bytes (a create's: every answer's)
//     iteration NS        one iteration's mean time per call, in nanoseconds
//     done
//     error MESSAGE       instead of the rest, and exit 1
//
// A paced job (ProtocolBench's load command, "mode": "paced") sends warmup_count requests back to back, pauses
// settle_ms, then count requests on a fixed schedule of rate a second, one at a time (a request that outlasts the
// interval delays the next, which shows as its lateness), and writes what cell.py's paced job writes:
//
//     answer BASE64                       the first good answer's bytes, which the harness checks
//     sample INDEX LATE_MS ELAPSED_MS ok [BASE64]
//                                         an answer that differs from the first goes back with it, to be checked
//     sample INDEX LATE_MS ELAPSED_MS failed|timedout CODE MESSAGE
//     done
//
// "node cell.mjs --versions" prints the stack's versions.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import * as signalR from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import { Client } from 'undici';
import WebSocket from 'ws';

/** The warm-up's least time: V8 compiles a hot path's optimized code within a second's calls. */
const WARM_UP_NS = 1_000_000_000n;

/** A call that failed; code names how, as the .NET client's errors do (HTTP_404, NOT_FOUND, timeout, transport). */
class Failed extends Error {
  constructor(message, code = 'failed') {
    super(message);
    this.code = code;
  }
}

/** A failed call's outcome word and code for a paced sample line. */
function outcome(error) {
  const code = error instanceof Failed ? error.code : /TIMEOUT/.test(error.code ?? '') ? 'timeout' : 'transport';
  return [code === 'timeout' || code === 'DEADLINE_EXCEEDED' ? 'timedout' : 'failed', code];
}

/**
 * A caller over one connection kept open (opened by the first call), or over a new one for every call, closed after
 * it: open() makes a client (or a promise of one), send(client) makes the call, dispose(client) closes it.
 */
function connections(job, open, send, dispose) {
  if (job.new_connection) {
    return {
      call: async () => {
        const client = await open();
        try {
          return await send(client);
        } finally {
          await dispose(client);
        }
      },
      close: async () => {},
    };
  }

  let kept;
  return {
    call: async () => send(kept ??= await open()),
    close: async () => kept && dispose(kept),
  };
}

/** undici over HTTP/1.1: one Client (one connection) kept open, or a new one for every call, closed after it. */
function httpCaller(job) {
  const origin = new URL(job.host_url).origin;
  const body = job.body ? Buffer.from(job.body, 'base64') : undefined;
  const headers = body ? { 'content-type': job.content_type } : {};
  const timeout = job.timeout_seconds * 1000;
  // HTTPS to the services' address with the certificate's host name in SNI and the name check (as the .NET client
  // connects), trusting exactly the project's certificate.
  const connect = job.tls ? { ca: readFileSync(job.certificate), servername: job.tls_host } : undefined;
  const open = () => new Client(origin, { connect, headersTimeout: timeout, bodyTimeout: timeout, pipelining: 1 });
  const decode = job.decode === 'json' ? (raw) => JSON.parse(raw.toString('utf8')) : () => {};

  const send = async (client) => {
    const response = await client.request({ method: job.method, path: `/${job.path}`, body, headers, reset: job.new_connection });
    const raw = Buffer.from(await response.body.arrayBuffer());
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new Failed(`HTTP ${response.statusCode}: ${raw.toString('utf8', 0, 200)}`, `HTTP_${response.statusCode}`);
    }
    decode(raw);
    return raw;
  };

  return connections(job, open, send, (client) => client.close());
}

/** protocolbench.proto's descriptors as the harness sends them, as a FileDescriptorSet (field 1, repeated) for proto-loader. */
function descriptorSet(job) {
  const files = job.descriptors.map((encoded) => Buffer.from(encoded, 'base64'));
  return Buffer.concat(files.flatMap((file) => [Buffer.from([0x0a]), varint(file.length), file]));
}

function varint(value) {
  const bytes = [];
  for (; value >= 0x80; value >>>= 7) bytes.push((value & 0x7f) | 0x80);
  bytes.push(value);
  return Buffer.from(bytes);
}

/**
 * The reply's deserializer, as a grpc-js client generated by proto-loader from the same .proto reads replies: a method's
 * that answers the reply's type (job.reply_type, its full name).
 */
function replyReader(job) {
  const definition = protoLoader.loadFileDescriptorSetFromBuffer(descriptorSet(job), {
    keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
  });
  const method = Object.entries(definition)
    .filter(([, service]) => typeof service === 'object' && !('format' in service))
    .flatMap(([name, service]) => Object.values(service).map((m) => [name.slice(0, name.lastIndexOf('.')), m]))
    .find(([pkg, m]) => `${pkg}.${m.responseType.type.name}` === job.reply_type)?.[1];
  if (!method) {
    throw new Failed(`the descriptors have no method answering ${job.reply_type}`);
  }
  return method.responseDeserialize;
}

/** grpc-js: one channel kept open, or a new channel with a connection of its own for every call. */
function grpcCaller(job) {
  const target = `${job.host}:${job.port}`;
  const credentials = job.tls
    ? grpc.credentials.createSsl(readFileSync(job.certificate))
    : grpc.credentials.createInsecure();
  const options = {
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    ...(job.tls && job.tls_host !== job.host ? { 'grpc.ssl_target_name_override': job.tls_host, 'grpc.default_authority': job.tls_host } : {}),
  };
  const request = Buffer.from(job.body, 'base64');
  const read = replyReader(job);
  // The answer's bytes go back to the harness; the decoded reply is what a program would use.
  const deserialize = (raw) => {
    read(raw);
    return raw;
  };
  const timeout = job.timeout_seconds * 1000;

  const send = (client) => new Promise((resolve, reject) => {
    client.makeUnaryRequest(job.path, (bytes) => bytes, deserialize, request, { deadline: Date.now() + timeout }, (error, raw) => {
      if (error) {
        const status = grpc.status[error.code] ?? `${error.code}`;
        reject(new Failed(`${status}: ${error.details}`, status));
      } else {
        resolve(raw);
      }
    });
  });

  // Without a subchannel pool of its own, grpc-js quietly shares one connection between clients to the same target.
  const own = job.new_connection ? { 'grpc.use_local_subchannel_pool': 1 } : {};
  return connections(job, () => new grpc.Client(target, credentials, { ...options, ...own }), send, (client) => client.close());
}

/**
 * @microsoft/signalr over a WebSocket (negotiation skipped, as ProtocolBench's own client connects), the JSON or the
 * MessagePack hub protocol: one connection kept open, or a new one (TCP, TLS, upgrade, hub handshake) for every call,
 * stopped after it. The result goes back as JSON, a byte array as base64, outside the timed call.
 */
function hubCaller(job) {
  const url = new URL(job.path, job.host_url).toString();
  const args = JSON.parse(Buffer.from(job.body, 'base64').toString('utf8'));
  const timeout = job.timeout_seconds * 1000;
  // The socket trusts exactly the project's certificate and checks the certificate's host name, as the .NET client.
  const tls = job.tls ? { ca: readFileSync(job.certificate), servername: job.tls_host } : {};
  class TrustingWebSocket extends WebSocket {
    constructor(address, protocols, options) {
      super(address, protocols, { ...options, ...tls });
    }
  }

  const open = async () => {
    const builder = new signalR.HubConnectionBuilder()
      .withUrl(url, { transport: signalR.HttpTransportType.WebSockets, skipNegotiation: true, WebSocket: TrustingWebSocket, timeout })
      .configureLogging(signalR.LogLevel.None);
    if (job.hub_protocol === 'messagepack') {
      builder.withHubProtocol(new MessagePackHubProtocol());
    }
    const connection = builder.build();
    connection.serverTimeoutInMilliseconds = timeout;
    await within(connection.start(), timeout);
    return connection;
  };
  const invoke = async (connection) => {
    try {
      return await within(connection.invoke(job.method, ...args), timeout);
    } catch (error) {
      throw error instanceof Failed ? error : new Failed(error.message);
    }
  };
  const bytes = (result) => Buffer.from(JSON.stringify(result, (_, value) => (value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value)));

  return { ...connections(job, open, invoke, (connection) => connection.stop()), bytes };
}

/** The promise, or a failure after the call's limit. */
function within(promise, ms) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Failed(`no answer within ${ms} ms`, 'timeout')), ms); }),
  ]).finally(() => clearTimeout(timer));
}

const callers = { http: httpCaller, grpc: grpcCaller, signalr: hubCaller };

async function measure(job, out) {
  // HTTP and gRPC answer bytes; a hub's result is turned into bytes by its caller, outside the timed call.
  const { call, close, bytes = (raw) => raw } = callers[job.protocol](job);
  const each = job.answers === 'each';
  try {
    const first = bytes(await call());
    out(`answer ${first.toString('base64')}`);

    // Outside the timed call: a read's answer equals the first; a create's goes back to be checked.
    const check = (index, answer) => {
      if (each) {
        out(`answer ${answer.toString('base64')}`);
      } else if (!answer.equals(first)) {
        throw new Failed(`answer ${index} differs from the first (${answer.length} bytes against ${first.length})`);
      }
    };

    // The warm-up: a second of calls (V8 optimizes the hot path), then calls for one iteration's time, whose count
    // sizes the measured iterations (as the .NET cells are sized).
    const clock = process.hrtime.bigint;
    const callFor = async (nanoseconds) => {
      const started = clock();
      let made = 0;
      while (made === 0 || clock() - started < nanoseconds) {
        check(made, bytes(await call()));
        made += 1;
      }
      return made;
    };
    let calls = 1;
    if (job.warmup) {
      await callFor(WARM_UP_NS);
      calls = await callFor(BigInt(job.iteration_ns));
    }
    for (let iteration = 0; iteration < job.iterations; iteration++) {
      let elapsed = 0n;
      for (let index = 0; index < calls; index++) {
        const started = clock();
        const answer = await call();
        elapsed += clock() - started;
        check(index, bytes(answer));
      }
      out(`iteration ${(Number(elapsed) / calls).toFixed(1)}`);
    }
    out('done');
  } finally {
    await close();
  }
}

/** The paced stream: the warm-up back to back, a pause, then one request every 1/rate seconds on a fixed schedule. */
async function pace(job, out) {
  const { call, close, bytes = (raw) => raw } = callers[job.protocol](job);
  const clock = process.hrtime.bigint;
  const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
  let first;
  const attempt = async () => {
    try {
      const answer = bytes(await call());
      if (!first) {
        first = answer;
        out(`answer ${answer.toString('base64')}`);
      }
      return { answer };
    } catch (error) {
      return { error };
    }
  };

  try {
    for (let index = 0; index < job.warmup_count; index++) {
      await attempt();
    }
    await sleep(job.settle_ms);
    const interval = 1e9 / job.rate;
    const origin = clock();
    for (let index = 0; index < job.count; index++) {
      const due = origin + BigInt(Math.round(index * interval));
      // A timer may fire up to a millisecond early: sleep again until the request is due.
      for (let wait = Number(due - clock()) / 1e6; wait > 0; wait = Number(due - clock()) / 1e6) {
        await sleep(wait);
      }
      const started = clock();
      const { answer, error } = await attempt();
      const elapsed = clock() - started;
      const timing = `sample ${index} ${(Number(started - due) / 1e6).toFixed(3)} ${(Number(elapsed) / 1e6).toFixed(3)}`;
      if (error) {
        const [word, code] = outcome(error);
        out(`${timing} ${word} ${code} ${error.message}`.replaceAll('\n', ' '));
      } else {
        out(`${timing} ok${answer.equals(first) ? '' : ` ${answer.toString('base64')}`}`);
      }
    }
    out('done');
  } finally {
    await close();
  }
}

function versions() {
  const require = createRequire(import.meta.url);
  const version = (name) => require(`${name}/package.json`).version;
  return `Node.js ${process.versions.node}, undici ${version('undici')}, @grpc/grpc-js ${version('@grpc/grpc-js')}, ` +
    `@grpc/proto-loader ${version('@grpc/proto-loader')}, @microsoft/signalr ${version('@microsoft/signalr')}, ` +
    `@microsoft/signalr-protocol-msgpack ${version('@microsoft/signalr-protocol-msgpack')}, ws ${version('ws')}, OpenSSL ${process.versions.openssl}`;
}

async function main() {
  if (process.argv.slice(2).join(' ') === '--versions') {
    console.log(versions());
    return;
  }

  const out = (line) => process.stdout.write(`${line}\n`);
  try {
    let line = '';
    for await (line of createInterface({ input: process.stdin })) {
      break;
    }
    const job = JSON.parse(line);
    await (job.mode === 'paced' ? pace : measure)(job, out);
  } catch (error) {
    out(`error ${error.constructor.name}: ${error.message}`.replaceAll('\n', ' '));
    process.exitCode = 1;
  }
}

await main();
