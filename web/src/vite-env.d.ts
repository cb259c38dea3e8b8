/// <reference types="vite/client" />

/** Build timestamp injected by vite.config.mts; cache-buster of the translation files. */
declare const __BUILD_TIMESTAMP__: string;

/** Swagger UI's ES bundle (swagger-ui-dist ships no typings for it): the factory the API docs page calls. */
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;
  export default SwaggerUIBundle;
}
