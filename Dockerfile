# coursegate container image (docs/deployment.md). Multi-stage: build with dev dependencies,
# ship only production dependencies and the compiled JavaScript, run as the unprivileged `node`
# user by its numeric id (1000:1000), which Kubernetes' `runAsNonRoot` can verify.
# test/deploy/dockerfile-replay.test.ts replays these steps without a Docker engine.

# ---- build: TypeScript → dist/ -------------------------------------------------------------
# The base image is pinned to one Node.js release (issue #28); move all three FROM lines together
# (and pin a digest, `node:24.21.0-slim@sha256:…`, in your own build if your registry allows).
FROM node:24.21.0-slim AS build
WORKDIR /app
# No compiler toolchain: better-sqlite3 ≥ 13 ships Node-API prebuilt binaries (nothing compiles).
COPY package.json package-lock.json ./
# `npm install` keeps to package-lock.json; `npm ci` refuses this lock (README: it lists only the
# optional platform binaries our registry serves).
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY adapters ./adapters
COPY src ./src
RUN npm run build

# ---- deps: production dependencies only ----------------------------------------------------
FROM node:24.21.0-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund

# ---- runtime ---------------------------------------------------------------------------------
FROM node:24.21.0-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
# glibc malloc (docs/deployment.md §2, "Memory"): at most 2 arenas instead of 8 per core. V8's
# helper threads (concurrent marking, compilers) and libuv's pool each grew an arena: 17–20 → 5–10 MB
# RSS after the bench, CPU per request unchanged (4 runs). `npm run start:prod` and `npm run bench` (BENCH_PROD=1, which
# reads this line) set the same.
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY config ./config
COPY docs ./docs
RUN mkdir -p /data && chown 1000:1000 /data
# `node` (uid/gid 1000 in the official image), numeric so that `runAsNonRoot` can check it.
USER 1000:1000
# /data: the embedded SQLite store (unused with REDIS_URL + DATABASE_URL); /app/config: YAML config.
VOLUME ["/data", "/app/config"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Production refuses to start without BASE_URL, COOKIE_SECRETS and SIGNING_KEY(_FILE).
# Migrations (issue #28): `node dist/src/cli/migrate.js` as a job before the release's processes,
# which then run with MIGRATE_ON_START=false (docs/deployment.md "Upgrades").
# V8 heap sizing (docs/deployment.md §2, "Memory"): the live heap is ~50 MB; Node 24's young
# generation grows to 64–128 MB under load. --max-semi-space-size=8 (MB) bounds it at 16 MB
# (RSS after start 177 → ~145 MB). --heap-growing-percent=50: V8 collects the old generation when
# it reaches 1.5× the live heap instead of up to four times (RSS after the whole bench 212–219 MB
# on SQLite, 216 on Redis; with 100, i.e. twice the live heap, 228–258 and 250 on the same machine);
# affordable since a finished request no longer leaves its objects in the old generation
# (src/http/release.ts, adapters/redis.ts): no CPU cost measurable on SQLite.
# No --max-old-space-size: a cap of 128–160 MB made V8 collect so often that a refresh grant cost
# 1.6–5× the CPU. `npm run start:prod` and `npm run bench` (BENCH_PROD=1, which reads this line)
# use the same flags.
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=50", "dist/src/main.js"]
