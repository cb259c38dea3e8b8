/** Constants of the web shell (spec 1 section 9). */

export const APP_VERSION_LABEL = 'v1.11';
export const REQUEST_TIMEOUT_MS = 60000;
export const BULK_DELETE_TIMEOUT_MS = 120000;
export const TOAST_TIMEOUT_MS = 3000;
export const SPINNER_DELAY_MS = 300;

export const AUTH_TOKEN_KEY = 'jhi-authenticationToken';
export const LOCALE_STORAGE_KEY = 'locale';

/** The base path of the app, taken from the page's <base href> (spec: "the shell uses the base path from the page"). */
export function basePath(): string {
  const href = document.querySelector('base')?.getAttribute('href') ?? '/';
  const path = new URL(href, window.location.origin).pathname;
  return path.endsWith('/') ? path : `${path}/`;
}

/** The router basename: the base path without its trailing slash ('' for the root). */
export function routerBasename(): string {
  return basePath().replace(/\/$/, '') || '/';
}
