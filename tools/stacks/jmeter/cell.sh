#!/usr/bin/env bash
# One cell through JMeter (Cell.java): ProtocolBench's benchmark command (--client jmeter) runs this and writes the job
# on its standard input. Compiles Cell.java once against Debian's JMeter 2.13, grpc-java and Netty into a cache of its
# own (keyed by the source's hash), with netty-tcnative's OpenSSL library under the name Netty loads it by (a symlink
# is not found: it must be a copy), then runs it. "cell.sh --versions" prints the stack's versions.
# Needs: apt-get install default-jdk-headless jmeter jmeter-http jmeter-java libgrpc-java libnetty-tcnative-jni libprotobuf-java libgoogle-gson-java
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
java_lib=/usr/share/java
jmeter_lib=/usr/share/jmeter/lib
tcnative=/usr/lib/x86_64-linux-gnu/jni/libnetty-tcnative.so

jars() { local IFS=:; echo "$*"; }
# JMeter's jars name the libraries they need in their manifests; grpc-java's and Netty's are listed here.
classpath="$(jars /usr/share/jmeter/bin/ApacheJMeter.jar "$jmeter_lib"/jorphan.jar "$jmeter_lib"/ext/ApacheJMeter_{core,http,java}.jar \
  "$java_lib"/{httpclient,httpcore,commons-logging,commons-codec}.jar \
  "$java_lib"/grpc-{api,core,netty,stub,context}.jar \
  "$java_lib"/netty-{buffer,codec,codec-http,codec-http2,common,handler,resolver,transport,handler-proxy,codec-socks,tcnative}.jar \
  "$java_lib"/{guava,perfmark-api,protobuf,protobuf-util,gson}.jar)"

for needed in /usr/bin/javac /usr/share/jmeter/bin/ApacheJMeter.jar "$jmeter_lib"/ext/ApacheJMeter_http.jar "$jmeter_lib"/ext/ApacheJMeter_java.jar \
  "$java_lib"/grpc-netty.jar "$java_lib"/netty-tcnative.jar "$java_lib"/protobuf-util.jar "$java_lib"/gson.jar "$tcnative"; do
  [ -e "$needed" ] || { echo "error the JMeter stack needs $needed" ; exit 1; }
done

cache_root="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/protocolbench"
cache="$cache_root/jmeter-$(cat "$here/Cell.java" "$here/cell.sh" | sha256sum | cut -c1-16)"
if [ ! -e "$cache/Cell.class" ]; then
  mkdir -p "$cache_root"
  building="$(mktemp -d "$cache.XXXXXX")"
  trap 'rm -rf "$building"' EXIT
  javac -nowarn -d "$building" -cp "$classpath" "$here/Cell.java" >&2
  mkdir "$building/native"
  cp "$tcnative" "$building/native/libnetty_tcnative.so"
  # Another cell may have built it meanwhile: keep the first.
  mv -T "$building" "$cache" 2> /dev/null || rm -rf "$building"
  trap - EXIT
fi
exec java -Djava.library.path="$cache/native" -cp "$cache:$classpath" Cell "$@"
