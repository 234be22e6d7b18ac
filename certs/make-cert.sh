#!/usr/bin/env bash
# Makes certs/protocolbench.pfx (server certificate with its private key) and certs/protocolbench.crt (what clients trust).
# Usage: bash certs/make-cert.sh [--force] [--name HOST ...]   (--name: an extra host name or IP address, for another machine)
set -euo pipefail
cd "$(dirname "$0")/.."
exec dotnet run certs/make-cert.cs -- "$@"
