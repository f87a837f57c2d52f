#!/bin/sh
# Creates (if absent) and migrates Temporal's two databases on Postgres with temporal-sql-tool.
# Runs in temporalio/admin-tools before the server starts (docker-compose service
# `temporal-admin-tools`). Idempotent: `create` ignores an existing database, `setup-schema -v 0.0`
# leaves a newer schema version alone, and `update-schema` applies only the versions not yet
# applied, so it also migrates the schema when the server image is upgraded.
#
# Environment: POSTGRES_SEEDS (host), DB_PORT, POSTGRES_USER, SQL_PASSWORD (read by
# temporal-sql-tool), DBNAME, VISIBILITY_DBNAME, SQL_PLUGIN (postgres12 or postgres12_pgx), and
# SCHEMA_DIR: where the image keeps the schema (the native runner, scripts/compose-native, points
# it at the schema of the server's Go module).
set -eu

: "${POSTGRES_SEEDS:?POSTGRES_SEEDS is required}"
: "${POSTGRES_USER:?POSTGRES_USER is required}"
: "${SQL_PASSWORD:?SQL_PASSWORD is required}"
DB_PORT=${DB_PORT:-5432}
DBNAME=${DBNAME:-temporal}
VISIBILITY_DBNAME=${VISIBILITY_DBNAME:-temporal_visibility}
SQL_PLUGIN=${SQL_PLUGIN:-postgres12}
MAX_ATTEMPTS=${MAX_ATTEMPTS:-60}
SLEEP_SECONDS=${SLEEP_SECONDS:-2}
SCHEMA_DIR=${SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}

echo "waiting for Postgres at ${POSTGRES_SEEDS}:${DB_PORT}..."
attempt=1
until nc -z -w 5 "$POSTGRES_SEEDS" "$DB_PORT"; do
  if [ "$attempt" -ge "$MAX_ATTEMPTS" ]; then
    echo "Postgres did not accept connections after $MAX_ATTEMPTS attempts" >&2
    exit 1
  fi
  attempt=$((attempt + 1))
  sleep "$SLEEP_SECONDS"
done

sql_tool() {
  temporal-sql-tool --plugin "$SQL_PLUGIN" --ep "$POSTGRES_SEEDS" -p "$DB_PORT" -u "$POSTGRES_USER" "$@"
}

setup_database() {
  db=$1
  versioned=$2
  echo "setting up database ${db} (schema ${versioned})"
  sql_tool --db "$db" create
  sql_tool --db "$db" setup-schema -v 0.0
  sql_tool --db "$db" update-schema -d "${SCHEMA_DIR}/${versioned}/versioned"
}

setup_database "$DBNAME" temporal
setup_database "$VISIBILITY_DBNAME" visibility
echo "Temporal schema is up to date"
