import {
  hasAnyRole,
  hasGlobalProcessPermission,
  higherMode,
  mergeAuthorities,
  modeSatisfies,
  nodeMode,
  processMode,
  type Principal,
} from './access';

const user = (authorities: Principal['authorities'], roles = ['ROLE_USER']): Principal => ({
  roles,
  authorities,
});

describe('access modes', () => {
  it('orders ADMIN above WRITE above READ, and null below all', () => {
    expect(higherMode('READ', 'WRITE')).toBe('WRITE');
    expect(higherMode('ADMIN', 'WRITE')).toBe('ADMIN');
    expect(higherMode(null, 'READ')).toBe('READ');
    expect(modeSatisfies('WRITE', 'READ')).toBe(true);
    expect(modeSatisfies('READ', 'WRITE')).toBe(false);
    expect(modeSatisfies(null, 'READ')).toBe(false);
  });

  it('gives the admin role ADMIN everywhere', () => {
    const admin = user([], ['ROLE_ADMIN']);
    expect(processMode(admin, 42)).toBe('ADMIN');
    expect(nodeMode(admin, 7, 42)).toBe('ADMIN');
    expect(hasGlobalProcessPermission(admin, 'ADMIN')).toBe(true);
  });

  it('takes the best authority on a process and ignores other components and types', () => {
    const p = user([
      { componentId: 1, type: 'PROCESS', mode: 'READ' },
      { componentId: 1, type: 'PROCESS', mode: 'WRITE' },
      { componentId: 2, type: 'PROCESS', mode: 'ADMIN' },
      { componentId: 1, type: 'NODE', mode: 'ADMIN' },
    ]);
    expect(processMode(p, 1)).toBe('WRITE');
    expect(processMode(p, 3)).toBeNull();
  });

  it('resolves a node to the higher of its process mode and its own mode', () => {
    const p = user([
      { componentId: 10, type: 'PROCESS', mode: 'WRITE' },
      { componentId: 5, type: 'NODE', mode: 'READ' },
      { componentId: 6, type: 'NODE', mode: 'ADMIN' },
    ]);
    expect(nodeMode(p, 5, 10)).toBe('WRITE');
    expect(nodeMode(p, 6, 10)).toBe('ADMIN');
    expect(nodeMode(p, 6, 99)).toBe('ADMIN');
    expect(nodeMode(p, 7, 99)).toBeNull();
  });

  it('treats a PROCESS authority on component -1 as the global permission', () => {
    expect(
      hasGlobalProcessPermission(user([{ componentId: -1, type: 'PROCESS', mode: 'WRITE' }]), 'WRITE'),
    ).toBe(true);
    expect(
      hasGlobalProcessPermission(user([{ componentId: -1, type: 'PROCESS', mode: 'READ' }]), 'WRITE'),
    ).toBe(false);
    expect(hasGlobalProcessPermission(user([{ componentId: 1, type: 'PROCESS', mode: 'ADMIN' }]))).toBe(
      false,
    );
  });

  it('requires any one of the listed roles, and at least one role for an empty list', () => {
    expect(hasAnyRole(['ROLE_USER'], ['ADMIN', 'USER'])).toBe(true);
    expect(hasAnyRole(['ROLE_USER'], ['ADMIN'])).toBe(false);
    expect(hasAnyRole(['ROLE_SUPER_ANNOTATOR'], [])).toBe(true);
    expect(hasAnyRole([], [])).toBe(false);
  });

  it('merges role and user authorities without duplicates', () => {
    const merged = mergeAuthorities(
      [
        { id: 1, componentId: 1, type: 'PROCESS', mode: 'READ' },
        { id: 2, componentId: 2, type: 'PROCESS', mode: 'READ' },
      ],
      [
        { id: 2, componentId: 2, type: 'PROCESS', mode: 'READ' },
        { id: 3, componentId: 3, type: 'NODE', mode: 'ADMIN' },
      ],
    );
    expect(merged.map((a) => a.id)).toEqual([1, 2, 3]);
  });
});
