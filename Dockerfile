# The workbench image: API, worker and migrations (same image, the command differs: docker-compose.yml).
# The web app is built at image build time. Runs as the unprivileged `node` user; uploads, page images and
# generated keys live in /var/lib/workbench (FILES_DIR, DATA_DIR), which the compose file mounts as volumes
# shared by every replica.
FROM node:20-bookworm-slim
WORKDIR /app
# The file parser's programs (OCR, PDF, office files, speech): the one list of scripts/install-system-deps.sh.
COPY scripts/install-system-deps.sh scripts/
RUN bash scripts/install-system-deps.sh runtime && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN node_modules/.bin/vite build --config web/vite.config.mts \
    # Owned by `node`, so the named volumes mounted here start writable by it.
    && mkdir -p /var/lib/workbench/files /var/lib/workbench/data \
    && chown -R node:node /var/lib/workbench
ENV NODE_ENV=production \
    FILES_DIR=/var/lib/workbench/files \
    DATA_DIR=/var/lib/workbench/data
USER node
EXPOSE 8080
CMD ["node_modules/.bin/tsx", "api/server.ts"]
