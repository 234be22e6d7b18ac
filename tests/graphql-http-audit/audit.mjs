// Runs every server audit of graphql-http (the GraphQL-over-HTTP spec's reference suite) against one URL.
// Prints each audit that is not "ok" and a last line "N ok, N warnings, N errors, N notices"; exits 1 on an error or a
// warning (a MUST or a SHOULD not met). Notices are the spec's MAYs. Usage: node audit.mjs http://127.0.0.1:5300/graphql
import { serverAudits } from 'graphql-http';

const url = process.argv[2];
if (!url) {
  console.error('Usage: node audit.mjs <url of the GraphQL endpoint>');
  process.exit(2);
}

const counts = { ok: 0, warn: 0, error: 0, notice: 0 };
for (const audit of serverAudits({ url, fetchFn: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(10_000) }) })) {
  const result = await audit.fn();
  counts[result.status]++;
  if (result.status !== 'ok') {
    console.log(`${result.status.toUpperCase()} ${audit.id} ${audit.name}: ${result.reason}`);
  }
}

console.log(`${counts.ok} ok, ${counts.warn} warnings, ${counts.error} errors, ${counts.notice} notices`);
process.exit(counts.error + counts.warn > 0 ? 1 : 0);
