#!/usr/bin/env bash
# The paper's kind of client against ProtocolBench's own services: JMeter's HTTP stack (Apache HttpClient 4 over the
# JDK's TLS) and the JMeter gRPC plugin's (grpc-java on Netty, answers printed as JSON), opening a connection per
# request and keeping one, in interleaved rounds. It measures what Bolanowski et al.'s client paid that ours does not (docs/presets.md,
# "The paper's client"). Debian or Ubuntu; installs a JDK and the libraries with apt-get when they are missing (root).
# Usage: bash tools/paper-clients/measure.sh [ROUNDS]   (default 5; each round 9 × (300 warm-up + 300 timed) calls)
set -euo pipefail
rounds="${1:-5}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
java_lib=/usr/share/java
packages=(default-jdk-headless libhttpclient-java libgrpc-java libnetty-java libperfmark-java libguava-java libprotobuf-java libgoogle-gson-java)

if ! command -v javac > /dev/null || [ ! -e "$java_lib/grpc-netty.jar" ] || [ ! -e "$java_lib/httpclient.jar" ] || [ ! -e "$java_lib/gson.jar" ]; then
  echo "Installing ${packages[*]} ..."
  apt-get install -y -qq "${packages[@]}" > /dev/null
fi

jars() { local IFS=:; echo "$*"; }
http_classpath="$(jars "$java_lib"/{httpclient,httpcore,commons-logging,commons-codec}.jar)"
grpc_classpath="$(jars "$java_lib"/grpc-{api,core,netty,stub,context}.jar \
  "$java_lib"/netty-{buffer,codec,codec-http,codec-http2,common,handler,resolver,transport,handler-proxy,codec-socks}.jar \
  "$java_lib"/{guava,perfmark-api,protobuf,protobuf-util,gson}.jar)"
classes="$(mktemp -d)"
javac -d "$classes" -cp "$http_classpath" "$root/tools/paper-clients/HttpProbe.java"
javac -d "$classes" -cp "$grpc_classpath" "$root/tools/paper-clients/GrpcProbe.java"

# The services on their usual ports, pinned to the last core; the client on the first (as the benchmark pins them).
cores="$(nproc)"
server_pin=(); client_pin=()
if [ "$cores" -ge 2 ] && command -v taskset > /dev/null; then
  server_pin=(taskset -c "$((cores - 1))"); client_pin=(taskset -c 0)
fi
[ -e "$root/certs/protocolbench.pfx" ] || bash "$root/certs/make-cert.sh"
logs="$(mktemp -d)"
pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
  rm -rf "$classes" "$logs"
}
trap stop EXIT
for service in Rest.Api Grpc.Service; do
  dotnet build -c Release -nologo -v q "$root/src/$service" > /dev/null
  "${server_pin[@]}" dotnet "$root/src/$service/bin/Release/net10.0/ProtocolBench.$service.dll" > "$logs/$service.log" 2>&1 &
  pids+=("$!")
done
for service in Rest.Api Grpc.Service; do
  for _ in $(seq 120); do grep -q "ready (pid" "$logs/$service.log" && break; sleep 1; done
  grep -q "ready (pid" "$logs/$service.log" || { echo "$service did not start (ports 5100/5101/5200 in use?):" >&2; tail -5 "$logs/$service.log" >&2; exit 1; }
done

quiet=-Dorg.apache.commons.logging.Log=org.apache.commons.logging.impl.NoOpLog
http() { "${client_pin[@]}" java "$quiet" -cp "$http_classpath:$classes" HttpProbe "$@" 300 300; }
grpc() { "${client_pin[@]}" java -cp "$grpc_classpath:$classes" GrpcProbe 127.0.0.1 5200 "$@" 300 300 2> /dev/null; }
results="$logs/results.txt"
for round in $(seq "$rounds"); do
  echo "round $round of $rounds"
  {
    # III on a new connection per call, as the paper's client made them, then on one kept.
    http http://127.0.0.1:5100/api/payloads/int-max new
    grpc int-max new raw
    http https://localhost:5101/api/payloads/int-max new
    http http://127.0.0.1:5100/api/payloads/int-max reuse
    grpc int-max reuse raw
    # What the plugin adds by printing each answer as JSON inside the sample: IV and VI on a kept channel.
    grpc ints reuse raw
    grpc ints reuse json
    grpc text-file reuse raw
    grpc text-file reuse json
  } | tee -a "$results"
done

# Each call's median of the rounds' medians, with the rounds' range.
echo
echo "over $rounds rounds (median of the rounds' medians, and their range):"
awk '{ at = index($0, " median "); key = substr($0, 1, at - 1); split(substr($0, at + 8), rest, " ")
    if (!(key in values)) keys[++n] = key
    values[key] = values[key] " " rest[1] }
  END {
    for (i = 1; i <= n; i++) {
      k = keys[i]; m = split(substr(values[k], 2), v, " ")
      for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (v[b] + 0 < v[a] + 0) { t = v[a]; v[a] = v[b]; v[b] = t }
      gsub(/ +/, " ", k)
      printf "  %-62s %7.3f ms  (%.3f–%.3f)\n", k, (m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2), v[1], v[m]
    }
  }' "$results"
