#!/bin/sh
# Creates the durable-mcp service's own role and database next to Temporal's databases.
#
# Run by the postgres image's entrypoint from /docker-entrypoint-initdb.d, ONLY when the data
# volume is initialised for the first time. On an existing volume, create them by hand:
#   docker compose exec postgresql psql -U temporal -d postgres \
#     -c "CREATE ROLE mcp LOGIN PASSWORD '...'" -c "CREATE DATABASE mcp OWNER mcp"
#
# The entrypoint may source this file rather than execute it, so it sets no shell options and
# never exits; psql stops at the first error (ON_ERROR_STOP), which fails the initialisation.
# The service's tables are created by its own migrations when the api or worker starts.

: "${MCP_DB_NAME:?MCP_DB_NAME is required}"
: "${MCP_DB_USER:?MCP_DB_USER is required}"
: "${MCP_DB_PASSWORD:?MCP_DB_PASSWORD is required}"

echo "creating role ${MCP_DB_USER} and database ${MCP_DB_NAME}"
psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname postgres \
  -v mcp_user="$MCP_DB_USER" -v mcp_password="$MCP_DB_PASSWORD" -v mcp_db="$MCP_DB_NAME" <<'EOSQL'
CREATE ROLE :"mcp_user" LOGIN PASSWORD :'mcp_password';
CREATE DATABASE :"mcp_db" OWNER :"mcp_user";
REVOKE ALL ON DATABASE :"mcp_db" FROM PUBLIC;
EOSQL
