// One cell measured through Node.js clients: undici (HTTP/1.1) for REST and GraphQL, @grpc/grpc-js for gRPC, and
// @microsoft/signalr for SignalR's hub (JSON or MessagePack, over a WebSocket by ws); the callers are in callers.mjs.
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
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { callers, Failed, outcome } from './callers.mjs';

/** The warm-up's least time: V8 compiles a hot path's optimized code within a second's calls. */
const WARM_UP_NS = 1_000_000_000n;

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
