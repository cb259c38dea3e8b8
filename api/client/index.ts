/**
 * The typed client of the API (issue 32): openapi-fetch over the types that `npm run openapi` generates
 * from docs/openapi.json (api/client/schema.ts), so a path, its parameters, the body and the answer are
 * checked by TypeScript against the contract. The integration and e2e tests call the API through it
 * (tests/support/harness.ts `suite.client`, tests/e2e/support.ts `api`); docs/api.md shows it.
 */
import createClient, { type Client } from 'openapi-fetch';
import { API_KEY_HEADER } from '../../domain/api-keys';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';
export type ApiClient = Client<paths>;

/** How the client signs its calls: a bearer token from `POST /api/authenticate`, or an API key. */
export type ApiAuth = { token: string } | { apiKey: string } | undefined;

/** A client of the API at `baseUrl` (`http://host:port`), signed with `auth` when given. */
export function createApiClient(baseUrl: string, auth?: ApiAuth, fetchImpl?: typeof fetch): ApiClient {
  const headers: Record<string, string> = {};
  if (auth && 'token' in auth) headers.Authorization = `Bearer ${auth.token}`;
  if (auth && 'apiKey' in auth) headers[API_KEY_HEADER] = auth.apiKey;
  return createClient<paths>({ baseUrl, headers, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
}
