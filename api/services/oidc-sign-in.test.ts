import { checkIssuerUrl, oidcConfig, parseRoleMap } from '../../server/config';
import { managedRoles, mapClaims, rolesFor, safeReturnPath } from './oidc-sign-in';

const config = oidcConfig({
  OIDC_ISSUER_URL: 'https://idp.example.test/realms/wb/',
  OIDC_CLIENT_ID: 'wb',
  OIDC_ROLE_MAP: 'team-a/admins=ROLE_ADMIN, auditors=ROLE_AUDITOR ROLE_USER',
})!;

describe('single sign-on settings', () => {
  it('reads the role mapping as claim value to roles, and refuses an entry without roles', () => {
    expect(config.roleMap).toEqual({
      'team-a/admins': ['ROLE_ADMIN'],
      auditors: ['ROLE_AUDITOR', 'ROLE_USER'],
    });
    expect(() => parseRoleMap('admins')).toThrow(/OIDC_ROLE_MAP/);
    expect(() => parseRoleMap('=ROLE_ADMIN')).toThrow(/OIDC_ROLE_MAP/);
  });

  it('takes an https issuer, or plain http on a loopback host only', () => {
    expect(config.issuerUrl).toBe('https://idp.example.test/realms/wb');
    expect(checkIssuerUrl('http://127.0.0.1:5556/dex')).toBe('http://127.0.0.1:5556/dex');
    expect(checkIssuerUrl('http://localhost:5556/dex')).toBe('http://localhost:5556/dex');
    expect(() => checkIssuerUrl('http://idp.example.test/dex')).toThrow(/https/);
    expect(() => checkIssuerUrl('http://127.0.0.1.example.test/dex')).toThrow(/https/);
  });

  it('is off without an issuer or a client id', () => {
    expect(oidcConfig({ OIDC_ISSUER_URL: 'https://idp.example.test' })).toBeNull();
  });
});

describe('claims to an account', () => {
  it('maps login, e-mail, names and roles (default role plus the mapped ones)', () => {
    expect(
      mapClaims(config, {
        iss: 'https://idp.example.test/realms/wb',
        sub: 'abc',
        preferred_username: 'Kate.Smith',
        email: 'Kate@Example.test',
        name: 'Kate van Smith',
        groups: ['team-a/admins', 'unmapped'],
      }),
    ).toEqual({
      issuer: 'https://idp.example.test/realms/wb',
      subject: 'abc',
      login: 'kate.smith',
      email: 'kate@example.test',
      firstName: 'Kate',
      lastName: 'van Smith',
      roles: ['ROLE_ADMIN', 'ROLE_USER'],
    });
  });

  it('falls back to the e-mail for the login and reads a role claim given as one string', () => {
    const c = mapClaims(config, { iss: 'i', sub: 's', email: 'jo@example.test', groups: 'auditors' });
    expect([c.login, c.firstName, c.lastName, c.roles]).toEqual([
      'jo',
      null,
      null,
      ['ROLE_AUDITOR', 'ROLE_USER'],
    ]);
  });

  it('refuses claims without a valid login or e-mail', () => {
    expect(() => mapClaims(config, { iss: 'i', sub: 's', preferred_username: 'a b', email: 'x@y' })).toThrow(
      /login/,
    );
    expect(() => mapClaims(config, { iss: 'i', sub: 's', preferred_username: 'ab' })).toThrow(/e-mail/);
  });

  it('manages only the roles the mapping and the defaults name', () => {
    expect(managedRoles(config)).toEqual(['ROLE_ADMIN', 'ROLE_AUDITOR', 'ROLE_USER']);
    expect(rolesFor(config, [])).toEqual(['ROLE_USER']);
  });
});

describe('the path to return to after the sign-in', () => {
  it('is a path of this app, never another origin or a landing page', () => {
    expect(safeReturnPath('/entity/process/3/documents?x=1')).toBe('/entity/process/3/documents?x=1');
    for (const bad of ['//evil.test/x', '/\\evil.test', 'https://evil.test', '/lp/login', 7, null])
      expect(safeReturnPath(bad)).toBeNull();
  });
});
