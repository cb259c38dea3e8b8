import { contentSecurityPolicy } from './security-headers';

describe('contentSecurityPolicy', () => {
  it('allows the websocket of the request host and port', () => {
    expect(contentSecurityPolicy('workbench.example.com:8443')).toContain(
      "connect-src 'self' ws://workbench.example.com:8443 wss://workbench.example.com:8443;",
    );
    expect(contentSecurityPolicy('[::1]:8080')).toContain(
      "connect-src 'self' ws://[::1]:8080 wss://[::1]:8080;",
    );
  });

  it('never lets a forged Host header add a source or a directive', () => {
    for (const host of [
      'evil.test; script-src *',
      'a.test *',
      "a.test 'unsafe-inline'",
      'a.test,b.test',
      '',
    ]) {
      const csp = contentSecurityPolicy(host);
      expect(csp).toContain("connect-src 'self'; ");
      expect(csp).not.toContain('*');
      expect(csp).not.toContain('unsafe');
      expect(csp.split('; ').filter((d) => d.startsWith('script-src'))).toEqual(["script-src 'self'"]);
    }
  });
});
