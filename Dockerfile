# The workbench image: API and worker (same image, different command). Web app built at image build time.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npx vite build --config web/vite.config.mts
EXPOSE 8080
CMD ["npx", "tsx", "api/server.ts"]
