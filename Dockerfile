# The Pet Adoption Service as an image: `docker build -t petstore .`, then
# `docker run -p 3000:3000 -v petstore-data:/data petstore` (README.md, "Deploying it").
# BASE is any Debian-based image with Node at /usr/local/bin/node, npm and a `node` user of uid
# 1000 (what the official images have); the tests pass one they build offline.
ARG BASE=node:22-bookworm-slim

FROM ${BASE} AS build
# better-sqlite3 compiles from source where its prebuilt binary cannot be downloaded: against the
# headers the base ships (npm_config_nodedir), never headers fetched at build time.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local CI=true TURBO_TELEMETRY_DISABLED=1 REDOCLY_TELEMETRY=off
WORKDIR /repo
# pnpm at the version package.json names, every package of the lockfile into pnpm's store, then
# the workspace's install. The store is a cache kept by the builder between builds, so a lockfile
# change downloads only what is new and better-sqlite3 is compiled once per version (pnpm keeps
# the build in its store). The npmca secret is only for a registry reached through a
# TLS-inspecting proxy: those steps trust that CA, and the file never enters a layer.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
RUN --mount=type=secret,id=npmca --mount=type=cache,id=petstore-pnpm-store,target=/pnpm,sharing=locked \
    test -f /run/secrets/npmca && export NODE_EXTRA_CA_CERTS=/run/secrets/npmca; \
    npm install -g --no-audit --no-fund "$(node -p 'require("./package.json").packageManager')" \
 && pnpm fetch --store-dir=/pnpm/store
# Every workspace package's package.json, nothing else, so the install below is redone only when
# a manifest changes, never for a source edit. One line per importer of the lockfile
# (scripts/test/dockerfile.test.ts names a missing one).
COPY packages/bench/package.json packages/bench/
COPY packages/client/package.json packages/client/
COPY packages/docs/package.json packages/docs/
COPY packages/server/package.json packages/server/
COPY packages/types/package.json packages/types/
COPY scripts/package.json scripts/
RUN --mount=type=secret,id=npmca --mount=type=cache,id=petstore-pnpm-store,target=/pnpm,sharing=locked \
    test -f /run/secrets/npmca && export NODE_EXTRA_CA_CERTS=/run/secrets/npmca; \
    pnpm install --frozen-lockfile --prefer-offline --store-dir=/pnpm/store
COPY . .
# The server's production dependencies with @petstore/types as a real copy (deploy packs the
# workspace's packages), its dist/ with the docs, bin/ and prometheus/ (package.json `files`).
# better-sqlite3 keeps only its compiled module: no C sources, no build files.
RUN --mount=type=secret,id=npmca --mount=type=cache,id=petstore-pnpm-store,target=/pnpm,sharing=locked \
    test -f /run/secrets/npmca && export NODE_EXTRA_CA_CERTS=/run/secrets/npmca; \
    pnpm turbo run build --filter=@petstore/server \
 && pnpm deploy --legacy --filter=@petstore/server --prod --prefer-offline --store-dir=/pnpm/store /app \
 && for module in /app/node_modules/.pnpm/better-sqlite3@*/node_modules/better-sqlite3; do \
      mv "$module/build/Release/better_sqlite3.node" /tmp/ \
      && rm -rf "$module/build" "$module/deps" "$module/src" \
      && mkdir -p "$module/build/Release" && mv /tmp/better_sqlite3.node "$module/build/Release/"; \
    done

FROM ${BASE}
# Only /data is the service's to write: the node user owns it and nothing else (its home goes).
RUN mkdir /data && chown 1000:1000 /data && rm -rf /home/node \
 && ln -s /app/bin/petstore.js /usr/local/bin/petstore
COPY --from=build /app /app
WORKDIR /app
# TMPDIR: the SQLite store's one-server lock (named by the file's inode) and SQLite's temporary
# files live beside the database, so a read-only root filesystem needs no writable /tmp, and two
# containers given the same volume see each other's lock.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 PETSTORE_METRICS_HOST=0.0.0.0 \
    PETSTORE_DB=/data/petstore.db TMPDIR=/data
VOLUME /data
EXPOSE 3000
# Numeric, so a platform can check it is not root (Kubernetes' runAsNonRoot): the node user.
USER 1000:1000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node is PID 1 and the server handles SIGTERM/SIGINT itself: it stops accepting, answers what
# is in flight, closes the store and exits 0 within PETSTORE_SHUTDOWN_SECONDS. The flags are the
# package's `start` script's.
CMD ["node", "--max-semi-space-size=16", "dist/server.js"]
