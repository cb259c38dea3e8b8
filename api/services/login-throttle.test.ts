import { addressKey } from './login-throttle';

describe('addressKey', () => {
  it('keeps IPv4 addresses, also IPv4-mapped ones', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts IPv6 addresses by their /64 prefix, however they are written', () => {
    const key = '2001:db8:1:2::/64';
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0:0:0:9',
      '2001:db8:1:2:0:0:192.0.2.1',
      'fe80::1%eth0'.replace('fe80::1', '2001:db8:1:2::5'),
    ])
      expect([ip, addressKey(ip)]).toEqual([ip, key]);
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('keeps anything else, bounded', () => {
    expect(addressKey('')).toBe('unknown');
    expect(addressKey('x'.repeat(100))).toHaveLength(64);
  });
});
