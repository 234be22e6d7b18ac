#!/usr/bin/env bash
# One cell through JMeter (Cell.java, with Tally.java, Schedule.java, GrpcCall.java and Out.java): ProtocolBench's
# benchmark command (--client jmeter) runs this and writes the job on its standard input. Compiles the *.java beside it
# once against Debian's JMeter 2.13, grpc-java and Netty into a cache of its own (keyed by the sources' hash), with
# netty-tcnative's OpenSSL library under the name Netty loads it by (a symlink is not found: it must be a copy), then
# runs it.
#   cell.sh --versions   prints the stack's versions
#   cell.sh --files      prints every file the stack loads (javac, java, the classpath, the native library), a line each:
#                        the Debian package that installs it, then its path
# Needs the Debian packages in debian-packages beside this file.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
java_lib=/usr/share/java
jmeter_lib=/usr/share/jmeter/lib
tcnative=/usr/lib/x86_64-linux-gnu/jni/libnetty-tcnative.so

# Every file the stack loads, each after the Debian package that installs it. java skips a missing classpath entry
# without a word (a missing perfmark-api.jar left every gRPC call waiting for its deadline), so each is checked here.
# JMeter's jars name the libraries they need in their manifests; grpc-java's and Netty's are listed.
files=(
  default-jdk-headless /usr/bin/javac
  default-jdk-headless /usr/bin/java
  jmeter /usr/share/jmeter/bin/ApacheJMeter.jar
  jmeter "$jmeter_lib"/jorphan.jar
  jmeter "$jmeter_lib"/ext/ApacheJMeter_core.jar
  jmeter-http "$jmeter_lib"/ext/ApacheJMeter_http.jar
  jmeter-java "$jmeter_lib"/ext/ApacheJMeter_java.jar
  libhttpclient-java "$java_lib"/httpclient.jar
  libhttpcore-java "$java_lib"/httpcore.jar
  libcommons-logging-java "$java_lib"/commons-logging.jar
  libcommons-codec-java "$java_lib"/commons-codec.jar
)
for jar in api core netty stub context; do files+=(libgrpc-java "$java_lib/grpc-$jar.jar"); done
for jar in buffer codec codec-http codec-http2 common handler resolver transport handler-proxy codec-socks; do
  files+=(libnetty-java "$java_lib/netty-$jar.jar")
done
files+=(
  libnetty-tcnative-java "$java_lib"/netty-tcnative.jar
  libguava-java "$java_lib"/guava.jar
  libperfmark-java "$java_lib"/perfmark-api.jar
  libprotobuf-java "$java_lib"/protobuf.jar
  libprotobuf-java "$java_lib"/protobuf-util.jar
  libgoogle-gson-java "$java_lib"/gson.jar
  libnetty-tcnative-jni "$tcnative"
)

classpath=""
for ((i = 0; i < ${#files[@]}; i += 2)); do
  package="${files[i]}" file="${files[i + 1]}"
  if [ ! -e "$file" ]; then
    echo "error the JMeter stack needs $file, from Debian's $package"
    echo "The JMeter stack's packages: apt-get install $(grep -v '^#' "$here/debian-packages" | xargs)" >&2
    exit 1
  fi
  [[ "$file" == *.jar ]] && classpath="${classpath:+$classpath:}$file"
done

if [ "${1:-}" = "--files" ]; then
  for ((i = 0; i < ${#files[@]}; i += 2)); do echo "${files[i]} ${files[i + 1]}"; done
  exit 0
fi

cache_root="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/protocolbench"
sources=("$here"/*.java)
cache="$cache_root/jmeter-$(cat "${sources[@]}" "$here/cell.sh" | sha256sum | cut -c1-16)"
if [ ! -e "$cache/Cell.class" ]; then
  mkdir -p "$cache_root"
  building="$(mktemp -d "$cache.XXXXXX")"
  trap 'rm -rf "$building"' EXIT
  javac -nowarn -d "$building" -cp "$classpath" "${sources[@]}" >&2
  mkdir "$building/native"
  cp "$tcnative" "$building/native/libnetty_tcnative.so"
  # Another cell may have built it meanwhile: keep the first.
  mv -T "$building" "$cache" 2> /dev/null || rm -rf "$building"
  trap - EXIT
fi
exec java -Djava.library.path="$cache/native" -cp "$cache:$classpath" Cell "$@"
