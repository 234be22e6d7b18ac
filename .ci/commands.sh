# The command checks of .ci/run, sourced by it: each function runs one of the two commands (or a client stack through
# them) end to end and checks what it wrote; .ci/run counts each as one check. Run from the repository's root.

# The report's check line: the services' CPU by their runtimes' account (EventPipe) against the kernel's (/proc/PID/stat)
# over the same windows, summed over the run; it must be there and within 10 %. Each window's kernel figure is in 10 ms
# steps, so the check is made on runs whose windows hold hundreds of ms of CPU (short job, load cells, rate steps).
cpu_accounts_agree() {
  local gap
  gap="$(grep -o 'over the same windows: [^ ]* %' "$1" | head -1 | sed 's/.*windows: //; s/ %//; s/^+//; s/^−//')"
  echo "server CPU, the runtimes' account against the kernel's: ${gap:-none} % ($1)"
  awk -v g="$gap" 'BEGIN { exit !(g != "" && g + 0 <= 10) }' || { echo "the services' CPU accounts disagree by more than 10 %, or no check: ${gap:-none}" >&2; return 1; }
}

smoke() {
  local bench_results="$(pwd)/results/ci-smoke"
  rm -rf "$bench_results"
  dotnet run -c Release --no-build --project benchmarks -- --smoke --results "$bench_results" || return 1
  local missing=0
  for file in summary.md summary.html summary.json matrix.svg pairs.csv; do
    [ -s "$bench_results/$file" ] || { echo "missing $file" >&2; missing=1; }
  done
  for class in Floor Payloads Files BinaryFiles Authors Shapes DomainFloor LoopbackTransfer; do
    for suffix in -report.html -report-github.md -report.csv -report-full.json; do
      [ -s "$bench_results/round-1/results/ProtocolBench.Benchmarks.Suite.$class$suffix" ] || { echo "missing $class$suffix" >&2; missing=1; }
    done
  done
  # The domain floor of every operation, and the table that splits each cell into shared work and protocol overhead.
  grep -q '"domainFloors": \[' "$bench_results/summary.json" || { echo "no domain floors in summary.json" >&2; missing=1; }
  grep -q "Where the time goes" "$bench_results/summary.md" || { echo "no overhead table in summary.md" >&2; missing=1; }
  # CI runs as root: the idle cores poll for the run (docs/methodology.md, "Idle cores poll").
  grep -q "^| Idle cores | polling: /dev/cpu_dma_latency held at 0 µs" "$bench_results/summary.md" || { echo "no polling idle cores in the setup" >&2; missing=1; }
  # The binary files held against moving their bytes over a plain TCP socket, measured in the same run.
  grep -q '"transfers": \[' "$bench_results/summary.json" || { echo "no loopback transfers in summary.json" >&2; missing=1; }
  grep -q "The loopback limit" "$bench_results/summary.md" || { echo "no loopback limit table in summary.md" >&2; missing=1; }
  # What each operation costs the service: every cell's readings in summary.json and the summary's table. (The check of
  # the two CPU accounts is made on the compare runs below: a smoke cell's window holds one operation, a few ms of CPU,
  # which the kernel's 10 ms steps cannot resolve.)
  grep -q '"serverCpuMicros": [0-9]' "$bench_results/summary.json" || { echo "no server cost readings in summary.json" >&2; missing=1; }
  grep -q "What each operation costs the service" "$bench_results/summary.md" || { echo "no server cost table in summary.md" >&2; missing=1; }
  # `report` writes the summary again from summary.json: the same file the run wrote.
  cp "$bench_results/summary.md" "$bench_results/summary.run.md"
  dotnet run -c Release --no-build --project benchmarks -- report "$bench_results" > /dev/null || { echo "report failed" >&2; missing=1; }
  cmp -s "$bench_results/summary.run.md" "$bench_results/summary.md" || { echo "report rewrote a different summary.md" >&2; diff "$bench_results/summary.run.md" "$bench_results/summary.md" | head -5 >&2; missing=1; }
  return "$missing"
}

# Two small runs of the sequential design (3 to 4 rounds, rows stopping when settled; one payload and two database rows)
# and compare: the command must read both, print its pairs line, and exit 0 (no pair ordered oppositely). A third run, a
# fixed design of 2 rounds, opens a new connection for every request and compresses (--connections new --compression
# gzip): compare must name the conditions that differ, and the report must show them and what opening a connection costs.
compare_runs() {
  local a="$(pwd)/results/ci-compare-a" b="$(pwd)/results/ci-compare-b" c="$(pwd)/results/ci-compare-new"
  # Int32 max and search-11 (not search-111: its checks read no more); the third run its floors and Int32 max, in one
  # round (what is checked of it is its setup, its connection set-up row and compare's conditions line).
  for run in "$a" "$b" "$c"; do
    rm -rf "$run"
    local cells=('*int-max*' '*Scenario: search-11,*' '*Scenario: search-11)*') design=(--min-rounds 3 --max-rounds 4)
    [ "$run" = "$c" ] && cells=('*int-max*' '*Suite.Floor.*') design=(--rounds 1 --connections new --compression gzip)
    dotnet run -c Release --no-build --project benchmarks -- --job short --filter "${cells[@]}" \
      "${design[@]}" --results "$run" || return 1
  done
  # Each report's headline counts the decided pairs; the sequential run's says where its rows settled.
  grep -Eq "^[0-9]+ of [0-9]+ pairs decided" "$a/summary.md" || { echo "no pairs line in the report's headline" >&2; return 1; }
  grep -q "Rows settled: " "$a/summary.md" || { echo "no settled rows line in the sequential run's report" >&2; return 1; }
  grep -Eq "^[0-9]+ of [0-9]+ pairs: nothing known" "$a/summary.md" || { echo "no nothing-known line in the report's headline" >&2; return 1; }
  # pairs.csv ends its lines with CRLF, as RFC 4180 (CsvHelper) does.
  head -1 "$a/pairs.csv" | tr -d '\r' | grep -qx 'operation,transport,faster,slower,ratio,low,high,confidence,rounds,state,claim,own_variance' || { echo "no pairs.csv" >&2; return 1; }
  grep -q "^| Rounds | .* 3 to 4 rounds: a look after round 3 (intervals at 99.5 %)" "$a/summary.md" || { echo "no sequential design in the setup" >&2; return 1; }
  # The services' CPU by their runtimes' account and by the kernel's, over the measured iterations of a short job.
  cpu_accounts_agree "$a/summary.md" || return 1
  dotnet run -c Release --no-build --project benchmarks -- compare "$a" "$b" | tee "$(pwd)/results/ci-compare.txt" || return 1
  grep -Eq "^pairs: [0-9]+ of [0-9]+ in the same state, 0 in opposite order" "$(pwd)/results/ci-compare.txt" || return 1
  grep -Eq "^calibration: SD [0-9.]+ \[[0-9.]+–[0-9.]+\] over [0-9]+ cells" "$(pwd)/results/ci-compare.txt" || { echo "no calibration line from compare" >&2; return 1; }
  dotnet run -c Release --no-build --project benchmarks -- compare "$a" "$c" | tee "$(pwd)/results/ci-compare-new.txt" || return 1
  grep -q "differ in their conditions: connections reuse against new; compression none against gzip" "$(pwd)/results/ci-compare-new.txt" || return 1
  grep -q "| Connections | new for every request" "$c/summary.md" || { echo "no connection policy in the new run's setup" >&2; return 1; }
  grep -q "| Compression | gzip" "$c/summary.md" || { echo "no compression in the new run's setup" >&2; return 1; }
  # Three runs at once: per row each run's ranking and the conditions that change a pair.
  dotnet run -c Release --no-build --project benchmarks -- compare "$a" "$b" "$c" | tee "$(pwd)/results/ci-compare-three.txt" || return 1
  grep -q "with a ranking in two or more runs" "$(pwd)/results/ci-compare-three.txt" || return 1
  grep -q "^| Opening a connection |" "$c/summary.md" || { echo "no connection set-up row in the new run's report" >&2; return 1; }
}

# One small shaped cell and a small load study on a shaped link (--network: the services in a network namespace behind
# a veth pair shaped by tc; delay by netem, or by the NFQUEUE delayer where the kernel has no netem), one delayed cell
# (the floors on a new and a warm connection under rate=100mbit,delay=20ms: the report's "Opening a connection"), then
# the cleanup check: no namespace, veth end, qdisc, delayer or iptables rule of ProtocolBench is left.
shaped_cell() {
  local run="$(pwd)/results/ci-network"
  rm -rf "$run"
  dotnet run -c Release --no-build --project benchmarks -- --smoke --filter '*pdf-raw*' --network lan-100m \
    --results "$run" || return 1
  grep -q "^| Network | lan-100m: 100 Mbit/s each way" "$run/summary.md" || { echo "no network row in the report" >&2; return 1; }
  dotnet run -c Release --no-build --project loadtests -- users --quick --scenarios search-11 --protocols rest \
    --network lan-100m --fail-on-errors --results "$run-load" || return 1
  grep -q "^| Network | lan-100m: 100 Mbit/s each way" "$run-load/report.md" || { echo "no network row in the load report" >&2; return 1; }
  dotnet run -c Release --no-build --project benchmarks -- --job short --rounds 1 --filter '*Suite.Floor.*' \
    --network rate=100mbit,delay=20ms --results "$run-delay" || return 1
  grep -Eq "^\| Network \| rate=100mbit,delay=20ms: 100 Mbit/s each way, 20 ms delay each way; .*(netem|NFQUEUE delayer)" "$run-delay/summary.md" \
    || { echo "no delayed network row in the report" >&2; return 1; }
  grep "^| Opening a connection |" "$run-delay/summary.md" || { echo "no connection set-up row in the delayed run's report" >&2; return 1; }
  if ip netns list | grep -q '^pb-' || ip -o link show | grep -q ': pbh[0-9]' || pgrep -f ProtocolBench.LinkDelayer >/dev/null \
    || { command -v iptables >/dev/null && iptables -w -t mangle -S PREROUTING | grep -q ' pbh[0-9]'; }; then
    echo "left behind: $(ip netns list | grep '^pb-') $(ip -o link show | grep -o 'pbh[0-9]*') $(pgrep -fa ProtocolBench.LinkDelayer)" >&2
    return 1
  fi
}
# One small run per client stack into results/ci-client-NAME (the caller's $run), of one short round (two where a check
# reads a ranking, which needs two); the report must name the client.
client_run() {
  local name="$1" rounds="$2"
  shift 2
  run="$(pwd)/results/ci-client-$name"
  rm -rf "$run"
  dotnet run -c Release --no-build --project benchmarks -- "$@" --job short --rounds "$rounds" --results "$run" || return 1
  grep -q "^| Client | $name (--client $name)" "$run/summary.md" || { echo "no client row in the $name report" >&2; return 1; }
}
# Kamiński's preset through Python (its floors, reads and create, every answer checked), the report listing what it
# cannot make and setting his orderings against the run's.
python_cell() {
  local run
  client_run python 2 --as kaminski || return 1
  grep -q "^| Cells the client cannot make | not measured by any client: the floor on gRPC's port" "$run/summary.md" \
    || { echo "the report does not list the cells the Python stack cannot make" >&2; return 1; }
  grep -Eq "^\| Create author \| HTTP \| gRPC fastest \| fastest: " "$run/summary.md" \
    || { echo "no Kamiński ordering for the create through Python" >&2; return 1; }
}
# And Int32 max through JMeter (its HTTP sampler, and grpc-java printing each answer as JSON), on both transports.
jmeter_cell() {
  local run time='(\*\*)?[0-9.]+ [mµ]s(\*\*)?'
  client_run jmeter 1 --client jmeter --filter '*Scenario: int-max,*' || return 1
  grep -Eq "^\| III Int32 max \| HTTPS \| $time \| $time \|" "$run/summary.md" \
    || { echo "no Int32 max row with REST and gRPC through JMeter" >&2; return 1; }
}
# And through Node.js's clients (undici, @grpc/grpc-js, @microsoft/signalr): every column, SignalR's two too.
node_cell() {
  local run time='(\*\*)?[0-9.]+ [mµ]s(\*\*)?'
  client_run node 1 --client node --filter '*Scenario: int-max,*' || return 1
  grep -Eq "^\| III Int32 max \| HTTPS \| $time \| $time \| $time \| $time \| $time \|" "$run/summary.md" \
    || { echo "no Int32 max row with all five columns through Node" >&2; return 1; }
  grep -q "^| Cells the client cannot make | none |" "$run/summary.md" || { echo "the Node stack could not make every Int32 max cell" >&2; return 1; }
}

# The load command's paced stream through JMeter as Bolanowski's preset sends it (the LAN profile, a new connection per
# request), shortened: Int32 max over REST and gRPC on both transports, every answer checked, JMeter's times in the table.
paced_jmeter() {
  local out="$(pwd)/results/ci-paced-jmeter"
  rm -rf "$out"
  dotnet run -c Release --no-build --project loadtests -- --as bolanowski --scenarios int-max --count 5 --rate 5 --paced-warmup 5 \
    --fail-on-errors --results "$out" || return 1
  grep -q "sent and timed by the jmeter stack in a process of its own" "$out/report.md" || { echo "the paced row does not name the JMeter stack" >&2; return 1; }
  [ "$(grep -c '^| III Int32 max | .* | 5 | [0-9.]* |.* | complete |$' "$out/report.md")" -eq 4 ] \
    || { echo "not four complete paced cells of 5 requests through JMeter" >&2; grep '^| III' "$out/report.md" >&2; return 1; }
  grep -Eq "^Reproduces [0-9]+ of the paper's [0-9]+ verdicts" "$out/report.md" || { echo "no reproduced-verdicts headline in the load report" >&2; return 1; }
  ! grep -q "III III" "$out/report.md" || { echo "a paced verdict names its scenario's numeral twice" >&2; return 1; }
}

load_sqlite() {
  local out="$(pwd)/results/ci-load-sqlite"
  dotnet run -c Release --no-build --project loadtests -- all --quick --fail-on-errors --results "$out" || return 1
  # What each request cost the service, in the report and users.csv, and the two CPU accounts agreeing.
  grep -q "server CPU µs/req" "$out/report.md" || { echo "no server cost in the load report" >&2; return 1; }
  grep -q "^| Idle cores | polling: " "$out/report.md" || { echo "no polling idle cores in the load report's setup" >&2; return 1; }
  head -1 "$out/users.csv" | grep -q "server_cpu_us_per_request" || { echo "no server cost in users.csv" >&2; return 1; }
  cpu_accounts_agree "$out/report.md"
}

# The open-loop rate sweep, bounded (three rates of a second each on search-11): its saturation table, steps, chart and
# the services' CPU accounts agreeing.
rate_sweep() {
  local out="$(pwd)/results/ci-rate"
  dotnet run -c Release --no-build --project loadtests -- rate --quick --results "$out" || return 1
  grep -q "Open-loop rate sweep" "$out/report.md" || { echo "no rate sweep in the load report" >&2; return 1; }
  [ "$(wc -l < "$out/rate.csv")" -ge 7 ] || { echo "rate.csv holds fewer steps than the six cells' first" >&2; return 1; }
  [ -s "$out/rate-search-11.svg" ] || { echo "no rate chart" >&2; return 1; }
  cpu_accounts_agree "$out/report.md"
}

load_postgres() {
  dotnet run -c Release --no-build --project loadtests -- users --quick --scenarios create --fail-on-errors --connections new \
    --database postgres --connection-string "${PROTOCOLBENCH_TEST_POSTGRES/protocolbench_tests/protocolbench_load}" \
    --results "$(pwd)/results/ci-load-postgres" || return 1
  # The report says which database, and that PostgreSQL's own CPU is not in the server cost.
  grep -q "^| Database | PostgreSQL .*not metered" "$(pwd)/results/ci-load-postgres/report.md" || { echo "the load report does not name PostgreSQL" >&2; return 1; }
}
