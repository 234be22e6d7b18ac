#!/usr/bin/env bash
# Makes certs/protocolbench.pfx (server certificate with its private key) and certs/protocolbench.crt (what clients trust).
# Usage: bash certs/make-cert.sh [--force]
set -euo pipefail
cd "$(dirname "$0")/.."
exec dotnet run certs/make-cert.cs -- "$@"
