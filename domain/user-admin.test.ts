import {
  authorityKey,
  authorityShapeRule,
  isBuiltInRole,
  personNameRule,
  roleNameRule,
  userLangKeyRule,
} from './user-admin';

describe('user administration rules', () => {
  it('accepts role names like the built-in ones and refuses others', () => {
    expect(roleNameRule('ROLE_TEAM_2')).toBeNull();
    expect(roleNameRule('  ')?.key).toBe('entity.validation.required');
    expect(roleNameRule('team')?.key).toBe('userManagement.validation.roleName');
    expect(roleNameRule('ROLE_team')?.key).toBe('userManagement.validation.roleName');
    expect(roleNameRule(`ROLE_${'A'.repeat(46)}`)).toEqual({
      code: 'Size',
      key: 'entity.validation.maxlength',
      params: { max: 50 },
    });
  });

  it('knows the built-in roles', () => {
    expect(['ROLE_ADMIN', 'ROLE_USER', 'ROLE_SUPER_ANNOTATOR'].every(isBuiltInRole)).toBe(true);
    expect(isBuiltInRole('ROLE_TEAM')).toBe(false);
  });

  it('checks the shape of an authority: a mode on a process or node; global only for processes', () => {
    expect(authorityShapeRule({ componentId: 3, type: 'NODE', mode: 'WRITE' })).toBeNull();
    expect(authorityShapeRule({ componentId: -1, type: 'PROCESS', mode: 'READ' })).toBeNull();
    expect(authorityShapeRule({ componentId: -1, type: 'NODE', mode: 'READ' })?.key).toBe(
      'userManagement.validation.authority',
    );
    expect(authorityShapeRule({ componentId: 0, type: 'PROCESS', mode: 'READ' })?.key).toBe(
      'userManagement.validation.authority',
    );
    expect(authorityShapeRule({ componentId: 3, type: 'PROCESS', mode: 'OWNER' })?.key).toBe(
      'userManagement.validation.authority',
    );
    expect(authorityShapeRule({ type: 'PROCESS', mode: 'READ' })?.key).toBe('entity.validation.required');
  });

  it('limits names to 50 characters and languages to the locales', () => {
    expect(personNameRule('x'.repeat(50))).toBeNull();
    expect(personNameRule('x'.repeat(51))?.code).toBe('Size');
    expect(userLangKeyRule('pl')).toBeNull();
    expect(userLangKeyRule('de')?.key).toBe('entity.validation.pattern');
  });

  it('keys an authority by type, component and mode', () => {
    expect(authorityKey({ componentId: 7, type: 'NODE', mode: 'ADMIN' })).toBe('NODE:7:ADMIN');
  });
});
