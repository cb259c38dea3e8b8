import { OWN_RELEASES, SPEC_HISTORY } from './changelog';

describe('changelog data', () => {
  it('lists the spec history from v1.11 down to v0.10, newest first', () => {
    const versions = SPEC_HISTORY.map((r) => r.version);
    expect(versions[0]).toBe('v1.11');
    expect(versions[versions.length - 1]).toBe('v0.10');
    const numbers = versions.map((v) => v.slice(1).split('.').map(Number));
    for (let i = 1; i < numbers.length; i++) {
      const [a, b] = [numbers[i - 1], numbers[i]];
      expect(a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])).toBe(true);
    }
  });

  it('writes every entry in English and Polish, and the own releases newest first with a date', () => {
    for (const release of [...OWN_RELEASES, ...SPEC_HISTORY]) {
      expect(release.features.length + release.bugfixes.length).toBeGreaterThan(0);
      for (const item of [...release.features, ...release.bugfixes]) {
        expect(item.en.trim()).not.toBe('');
        expect(item.pl.trim()).not.toBe('');
        expect(item.pl).not.toBe(item.en);
      }
    }
    const dates = OWN_RELEASES.map((r) => r.date!);
    expect([...dates].sort().reverse()).toEqual(dates);
  });
});
