#!/bin/sh
# Temporal's schema in the PostgreSQL of docker-compose.yml: run once per `docker compose up` by the
# temporal-schema service (temporalio/admin-tools), before the server starts. Creates the databases
# `temporal` and `temporal_visibility` when missing and brings both schemas to the version of the image
# (setup-schema -v 0.0 then update-schema, as Temporal's compose samples do; both are idempotent).
set -eu
: "${POSTGRES_SEEDS:?POSTGRES_SEEDS is required}"
: "${POSTGRES_USER:?POSTGRES_USER is required}"
: "${SQL_PASSWORD:?SQL_PASSWORD is required}"
PORT="${DB_PORT:-5432}"
SCHEMA=/etc/temporal/schema/postgresql/v12

nc -z -w 10 "$POSTGRES_SEEDS" "$PORT"
for db in temporal temporal_visibility; do
  case "$db" in
    temporal) dir="$SCHEMA/temporal/versioned" ;;
    *) dir="$SCHEMA/visibility/versioned" ;;
  esac
  tool() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$PORT" -u "$POSTGRES_USER" --db "$db" "$@"; }
  # `create` fails when the database exists (a restart of the stack): that is fine.
  tool create || echo "database $db exists"
  tool setup-schema -v 0.0
  tool update-schema -d "$dir"
done
echo 'Temporal schema is up to date'
