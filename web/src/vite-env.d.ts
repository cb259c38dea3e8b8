/// <reference types="vite/client" />

/** Build timestamp injected by vite.config.mts; cache-buster of the translation files. */
declare const __BUILD_TIMESTAMP__: string;
