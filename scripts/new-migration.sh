#!/usr/bin/env bash
# Writes prisma/migrations/<timestamp>_<name>/migration.sql: the SQL from the last committed
# prisma/schema.prisma to the working one. (The JS engine has no shadow database, so
# `migrate dev` and `migrate diff --from-url` are unavailable; two datamodels diff fine.)
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:?usage: scripts/new-migration.sh <name>}"
previous="$(mktemp --suffix=.prisma)"
trap 'rm -f "$previous"' EXIT
git show HEAD:prisma/schema.prisma > "$previous"
dir="prisma/migrations/$(date -u +%Y%m%d%H%M%S)_${name}"
mkdir -p "$dir"
npx prisma migrate diff --from-schema-datamodel "$previous" --to-schema-datamodel prisma/schema.prisma --script 2>/dev/null \
  | grep -v '^Loaded Prisma config' > "$dir/migration.sql"
echo "wrote $dir/migration.sql"
