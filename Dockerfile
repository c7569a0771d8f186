# Built from the package people install. The build stage installs every dependency and runs `npm pack`
# (its prepack builds dist/), giving the same switchyard-<version>.tgz as anywhere else; the runtime
# stage unpacks that package into /app and installs its production dependencies from the lockfile
# (no dev dependency, no TypeScript toolchain, no sources), and runs as the unprivileged `node` user.

FROM node:20-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# The client package is a workspace of the lockfile (its sources are compiled into the CLI).
COPY packages/client/package.json ./packages/client/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json README.md CHANGELOG.md ./
COPY scripts ./scripts
COPY config ./config
COPY bin ./bin
COPY src ./src
COPY workers ./workers
COPY packages/client/src ./packages/client/src
RUN mkdir /pkg && npm pack --pack-destination /pkg && mv /pkg/switchyard-*.tgz /pkg/switchyard.tgz

FROM node:20-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /pkg/switchyard.tgz /tmp/switchyard.tgz
COPY --from=build /src/package-lock.json ./
# The package's own files at /app (so dist/workers/*.js and dist/config/ are where the Procfile and
# docker-compose.yml name them), its dependencies as the lockfile pins them, production ones only;
# --omit=optional too: TypeScript is an optional peer of Bull Board's valibot, which the runtime never loads.
RUN tar -xzf /tmp/switchyard.tgz --strip-components=1 -C /app && rm /tmp/switchyard.tgz \
  && npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force \
  && chmod +x bin/switchyard.mjs && ln -s /app/bin/switchyard.mjs /usr/local/bin/switchyard
USER node
EXPOSE 3000
# /healthz is served by processes with the API role (web, and this default all-in-one command); a
# worker-only container has no HTTP server: disable the check for it (see docker-compose.yml).
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# All roles in one process; `switchyard web` and `switchyard worker` (or node dist/workers/web.js and
# worker.js) split them.
CMD ["switchyard", "start"]
