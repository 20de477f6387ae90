# Kadr in one image: the web app and the compiled server, built with the development tools in the first
# stage and run without them in the second. Media processing needs ffmpeg (Debian's), the database is
# PostgreSQL (DATABASE_URL) or the embedded PGlite in /data when it is unset.
#
#   docker build -t kadr .
#   docker run -p 3000:3000 -v kadr-data:/data kadr            # one container, embedded database
#   docker compose up                                          # the whole stack (compose.yaml)

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
# The web app (apps/web/dist, precompressed) and the server bundle (apps/server/dist/main.mjs).
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends ffmpeg fonts-dejavu-core ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/apps/server/package.json apps/server/
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/assets/pglite assets/pglite
COPY --from=build /app/packages/contract/package.json packages/contract/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:3000/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM ends it gracefully (in-flight requests finish, sockets close, the job lease is given back).
CMD ["node", "--enable-source-maps", "apps/server/dist/main.mjs"]
