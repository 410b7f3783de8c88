#!/usr/bin/env bash
# Refreshes graphql/admin_2026-10.json.gz, the introspection of Shopify's Admin API 2026-10,
# from the npm package in which Shopify publishes it. The package is unpacked, never installed.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-1.16.0}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack "@shopify/dev-mcp@${version}" >/dev/null && tar xzf shopify-dev-mcp-*.tgz package/dist/data/admin_2026-10.json.gz)
cp "$work/package/dist/data/admin_2026-10.json.gz" graphql/admin_2026-10.json.gz
echo "graphql/admin_2026-10.json.gz refreshed from @shopify/dev-mcp@${version}"
