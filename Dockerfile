# Two stages: the build stage has the dev dependencies and compiles to dist/; the runtime stage has the
# production dependencies and dist/ only (no TypeScript toolchain, no sources), and runs as `node`.

FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY config ./config
COPY src ./src
COPY workers ./workers
RUN npm run build

FROM node:20-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=optional too: TypeScript is an optional peer of Bull Board's valibot, which the runtime never loads.
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
USER node
EXPOSE 3000
# /healthz is served by processes with the API role (web, and this default all-in-one command); a
# worker-only container has no HTTP server: disable the check for it (see docker-compose.yml).
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# All roles in one process; run dist/workers/web.js or dist/workers/worker.js to split them.
CMD ["node", "dist/workers/main.js"]
