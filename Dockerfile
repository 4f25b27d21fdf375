# syntax=docker/dockerfile:1
# campaign-web in two stages: the build (every dependency, `npm run build`), then the runtime, which holds the
# production artifact only (.output: the server bundle, the public files, the lockfile of the runtime
# dependencies; see docs/server.md#the-production-artifact). No Docker engine runs in CI: the runtime stage's
# commands (the `npm ci`, the CMD and the HEALTHCHECK below) are run on the artifact, in a folder outside the
# checkout, by tests/server/output.test.ts, which reads them from this file and pins its USER, VOLUME and ENV.

FROM node:24-bookworm-slim AS build
WORKDIR /src
# The dependencies first, so a change of the sources reuses this layer. No install scripts: `prepare` needs the
# sources (Panda's codegen runs in the build anyway), and every native package here ships prebuilt binaries.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# Where the site lives: absolute URLs in the sitemap, canonical links and link previews (without it the build
# says so and writes none of them).
ARG PUBLIC_ORIGIN=""
# For a static host only: where `_redirects` proxies /api/* and the form posts.
ARG API_ORIGIN=""
# The build reads no data: the server renders the public pages on request from its database.
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4173 \
    DATA_DIR=/data
WORKDIR /app
# Owned by root and read-only to the server: it writes only into DATA_DIR (the embedded database when there is
# no DATABASE_URL, the rendered-image cache).
COPY --from=build /src/.output ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 4173
# No curl in the slim image; Node's fetch does. /healthz answers 503 while the server drains on SIGTERM.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "server/index.mjs"]
