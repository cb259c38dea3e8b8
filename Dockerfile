# The workbench image: API, worker and migrations (same image, the command differs: docker-compose.yml and
# the Helm chart in deploy/helm/workbench). Two stages:
#   build    every npm dependency, the web app (dist/web) and the workflow bundle (dist/workflow-bundle.js),
#            then the development dependencies pruned;
#   runtime  the file parser's Debian programs, the production dependencies and the built files from `build`,
#            the TypeScript sources run by tsx. The worker loads the prebuilt bundle (WORKFLOW_BUNDLE_PATH)
#            instead of bundling the workflows at each start.
# Runs as the unprivileged `node` user (uid 1000; numeric, so Kubernetes can check runAsNonRoot) and works with
# a read-only root filesystem given a writable /tmp. Uploads and page images live in FILES_DIR, a volume
# shared by every API and worker. Written against the images' documentation; it has not been built here (the
# development machines have no container engine).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN node_modules/.bin/vite build --config web/vite.config.mts \
    && node_modules/.bin/tsx scripts/bundle-workflows.ts dist/workflow-bundle.js \
    && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# The file parser's programs (OCR, PDF, office files, speech): the one list of scripts/install-system-deps.sh.
COPY scripts/install-system-deps.sh scripts/
RUN bash scripts/install-system-deps.sh runtime && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/node_modules ./node_modules
COPY . .
COPY --from=build /app/dist ./dist
RUN mkdir -p /var/lib/workbench/files /var/lib/workbench/data \
    # Owned by `node`, so volumes mounted here (Compose's named volumes) start writable by it.
    && chown -R 1000:1000 /var/lib/workbench
ENV NODE_ENV=production \
    FILES_DIR=/var/lib/workbench/files \
    DATA_DIR=/var/lib/workbench/data \
    WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js
USER 1000:1000
EXPOSE 8080
CMD ["node_modules/.bin/tsx", "api/server.ts"]
