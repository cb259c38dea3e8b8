/**
 * The session is cleared by a 401 only: a 403 refuses one thing to a signed-in user (a route of a higher access
 * mode), who stays signed in.
 */
import { clearAuthToken, configureClient, getAuthToken, request, storeAuthToken } from './client';

class MemoryStorage {
  private items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
  removeItem = (k: string) => void this.items.delete(k);
}

describe('the API client and the session', () => {
  const realFetch = globalThis.fetch;
  let cleared = 0;
  beforeAll(() => {
    Object.assign(globalThis, {
      localStorage: new MemoryStorage(),
      sessionStorage: new MemoryStorage(),
      window: globalThis,
      document: { querySelector: () => null },
      location: { origin: 'http://localhost', href: 'http://localhost/' },
    });
    configureClient({ onAuthCleared: () => void cleared++ });
  });
  afterAll(() => {
    globalThis.fetch = realFetch;
  });
  beforeEach(() => {
    cleared = 0;
    clearAuthToken();
    storeAuthToken('token-1', true);
  });
  const answering = (status: number) => {
    globalThis.fetch = (async () =>
      new Response(JSON.stringify({ message: `error.http.${status}` }), {
        status,
        headers: { 'Content-Type': 'application/json' },
      })) as typeof fetch;
  };

  it('keeps the token after a 403', async () => {
    answering(403);
    await expect(request('/api/nodes/1/steps/rerun', { method: 'POST' })).rejects.toMatchObject({ status: 403 });
    expect(getAuthToken()).toBe('token-1');
    expect(cleared).toBe(0);
  });

  it('clears it after a 401', async () => {
    answering(401);
    await expect(request('/api/account')).rejects.toMatchObject({ status: 401 });
    expect(getAuthToken()).toBeNull();
    expect(cleared).toBe(1);
  });
});
