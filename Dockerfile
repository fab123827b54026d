# syntax=docker/dockerfile:1
# One image for the API and the Temporal worker (docker-compose.yml picks the entry point with `command`).
#   api:    node --import tsx api/server.ts
#   worker: node --import tsx temporal/worker.ts

FROM node:24-bookworm-slim AS deps
WORKDIR /app
ENV npm_config_update_notifier=false
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# The single-page UI, served by the API from ui/dist.
RUN npx vite build --config ui/vite.config.ts
# The prebuilt workflow bundle the worker loads (`workflowBundle: { codePath }`), so it does not bundle at start.
RUN node --import tsx temporal/build-workflow-bundle.ts

FROM node:24-bookworm-slim AS runtime
# Chromium renders the PDFs (playwright-core launches /usr/bin/chromium); fonts keep the layout stable.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-dejavu-core ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    CHROMIUM_PATH=/usr/bin/chromium \
    DATA_DIR=/app/data \
    HOST=0.0.0.0 \
    PORT=3030
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3030
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--import", "tsx", "api/server.ts"]
