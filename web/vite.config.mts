/**
 * Vite build of the web app: root is web/, output goes to dist/web, and the dev/preview servers proxy the
 * API paths to the Koa server. `@domain` points at the shared pure-TS domain package.
 */
import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompiledAjv } from './vite-precompiled-ajv.mts';

const apiTarget = process.env.API_URL ?? 'http://localhost:8080';
const proxy = {
  '/api': { target: apiTarget, changeOrigin: true },
  '/management': { target: apiTarget, changeOrigin: true },
  '/i18n': { target: apiTarget, changeOrigin: true },
  '/websocket': { target: apiTarget, changeOrigin: true, ws: true },
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  // No run-time schema compilation: the app runs under a CSP without 'unsafe-eval'.
  plugins: [react(), precompiledAjv()],
  resolve: {
    alias: { '@domain': fileURLToPath(new URL('../domain', import.meta.url)) },
  },
  define: {
    // Cache-buster for the translation files served by the API (GET /i18n/{locale}.json?buildTimestamp=...).
    __BUILD_TIMESTAMP__: JSON.stringify(String(Date.now())),
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
  },
  server: { proxy },
  preview: { proxy },
});
