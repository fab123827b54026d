# syntax=docker/dockerfile:1
# One image for the API, the Temporal worker and the one-shot database preparation; docker-compose.yml picks the entry
# point with `command`. The image runs compiled JavaScript (npm run build → dist/) with production dependencies only:
#   api:     node --max-semi-space-size=8 --enable-source-maps dist/server.js
#   worker:  node --enable-source-maps dist/worker.js
#   migrate: node --enable-source-maps dist/migrate.js   (create + migrate + reference data; no development accounts)

# Build stage: every dependency (vite, typescript, tsx, esbuild…), the UI and the server bundles.
FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV npm_config_update_notifier=false
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The single-page UI, served by the API from ui/dist.
RUN npx vite build --config ui/vite.config.ts
# Type-check, then dist/server.js, dist/worker.js, dist/migrate.js, dist/migrations/*.js and the prebuilt workflow
# bundle dist/workflow-bundle.js (devtools/temporal/build-workflow-bundle.ts) the worker loads (WORKFLOW_BUNDLE_PATH).
RUN npm run build

# Production dependencies only (npm ci --omit=dev): no tsx, TypeScript, Vite, Vitest or ESLint in the image.
FROM node:24-bookworm-slim AS production-deps
WORKDIR /app
ENV npm_config_update_notifier=false
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:24-bookworm-slim AS runtime
# Chromium renders the PDFs (playwright-core launches Debian's headless-only build); fonts keep the layout stable.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium-headless-shell fonts-liberation fonts-dejavu-core ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell \
    DATA_DIR=/app/data \
    HOST=0.0.0.0 \
    PORT=3030 \
    WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# dist/ sits next to ui/dist and node_modules exactly as in the repository: the code finds them from import.meta.url.
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/dist ./dist
COPY --from=build /app/ui/dist ./ui/dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3030
ENTRYPOINT ["/usr/bin/tini", "--"]
# The API's memory settings (config/api-process.ts, docs/PROCESSES.md "Memory"): an 8 MiB semi-space holds its peak
# RSS under 250 MiB where Node's default young generation (up to 128 MiB on a large host) takes it to 300–400.
CMD ["node", "--max-semi-space-size=8", "--enable-source-maps", "dist/server.js"]
