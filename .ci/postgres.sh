#!/usr/bin/env bash
# Starts the machine's PostgreSQL (installed, not running on a fresh machine), sets the password the tests use,
# and prints the connection string. Installs PostgreSQL first if it is missing.
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(pg_lsclusters --no-header | awk 'NR==1 {print $1}')
cluster=$(pg_lsclusters --no-header | awk 'NR==1 {print $2}')
if ! pg_lsclusters --no-header | awk 'NR==1 {print $4}' | grep -q online; then
  pg_ctlcluster "$version" "$cluster" start >&2
fi
for _ in $(seq 1 30); do
  su postgres -c "psql -qtAc 'SELECT 1'" >/dev/null 2>&1 && break
  sleep 1
done
su postgres -c "psql -qtAc \"ALTER USER postgres PASSWORD 'protocolbench'\"" >/dev/null
echo "Host=127.0.0.1;Port=5432;Username=postgres;Password=protocolbench;Database=protocolbench_tests"
