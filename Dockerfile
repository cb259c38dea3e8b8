# The workbench image: API and worker (same image, different command). Web app built at image build time.
FROM node:20-bookworm-slim
WORKDIR /app
# The file parser's programs (OCR, PDF, office files, speech).
RUN apt-get update && apt-get install -y --no-install-recommends \
      tesseract-ocr tesseract-ocr-eng tesseract-ocr-pol poppler-utils \
      libreoffice-writer-nogui libreoffice-calc-nogui pocketsphinx pocketsphinx-en-us sox \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npx vite build --config web/vite.config.mts
EXPOSE 8080
CMD ["npx", "tsx", "api/server.ts"]
