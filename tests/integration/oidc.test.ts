/**
 * Identity-provider logout (issue 15 section 4): with OIDC_ISSUER_URL and OIDC_CLIENT_ID the API discovers
 * the provider's end-session endpoint (a local stand-in for the provider here) and `management/info` gives it
 * with the client id; OIDC_END_SESSION_URL skips the discovery; without a provider, or when the discovery
 * fails, there is no logout URL and the logout stays local.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupSuite } from '../support/harness';
import { oidcConfig } from '../../server/config';

/** The provider's settings as the environment would give them (the rest at their defaults). */
const provider = (issuerUrl: string, clientId: string, endSessionUrl?: string) =>
  oidcConfig({ OIDC_ISSUER_URL: issuerUrl, OIDC_CLIENT_ID: clientId, OIDC_END_SESSION_URL: endSessionUrl });

let discoveries = 0;
const idp = http.createServer((req, res) => {
  if (req.url === '/realms/wb/.well-known/openid-configuration') {
    discoveries++;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ issuer: 'x', end_session_endpoint: 'https://idp.example.test/logout' }));
  } else {
    res.statusCode = 404;
    res.end();
  }
});
const issuer = async (path: string) => {
  if (!idp.listening) await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(idp.address() as AddressInfo).port}${path}`;
};
afterAll(() => new Promise((r) => idp.close(r)));

describe('OIDC logout URL from the discovery document', () => {
  const suite = setupSuite({
    config: async () => ({ oidc: provider(await issuer('/realms/wb'), 'work bench') }),
  });

  it('is the end-session endpoint with the client id, discovered once', async () => {
    for (let i = 0; i < 2; i++) {
      const info = await suite.get('/management/info');
      expect(info.body.logoutUrl).toBe('https://idp.example.test/logout?client_id=work%20bench');
    }
    expect(discoveries).toBe(1);
  });
});

describe('OIDC logout URL configured directly', () => {
  const suite = setupSuite({
    config: {
      oidc: provider('https://unused.invalid', 'wb', 'https://idp.test/end?x=1'),
    },
  });

  it('needs no discovery', async () => {
    expect((await suite.get('/management/info')).body.logoutUrl).toBe(
      'https://idp.test/end?x=1&client_id=wb',
    );
  });
});

describe('OIDC provider whose discovery fails, and no provider', () => {
  const failing = setupSuite({
    config: async () => ({ oidc: provider(await issuer('/nothing-here'), 'wb') }),
  });
  const none = setupSuite({ config: { oidc: null } });

  it('has no logout URL: the logout stays local', async () => {
    expect((await failing.get('/management/info')).body.logoutUrl).toBeUndefined();
    expect((await none.get('/management/info')).body.logoutUrl).toBeUndefined();
  });
});
