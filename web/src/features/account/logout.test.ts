import { identityProviderLogoutUrl } from './logout';

describe('identity-provider logout URL', () => {
  const origin = 'https://wb.example.test';

  it("gives a '/protocol' URL the page origin as redirect_uri", () => {
    expect(identityProviderLogoutUrl('https://idp.test/realms/x/protocol', 'tok', origin)).toBe(
      'https://idp.test/realms/x/protocol?redirect_uri=https%3A%2F%2Fwb.example.test',
    );
  });

  it('adds the id token hint only when the provider gave one, and always post_logout_redirect_uri', () => {
    expect(identityProviderLogoutUrl('https://idp.test/logout?client_id=wb', 'a.b.c', origin)).toBe(
      'https://idp.test/logout?client_id=wb&id_token_hint=a.b.c&post_logout_redirect_uri=https%3A%2F%2Fwb.example.test',
    );
    expect(identityProviderLogoutUrl('https://idp.test/logout?client_id=wb', null, origin)).toBe(
      'https://idp.test/logout?client_id=wb&post_logout_redirect_uri=https%3A%2F%2Fwb.example.test',
    );
  });
});
