import {
  classifyAddress,
  guardOutbound,
  isAllowlisted,
  normalizeIp,
  OutboundRefused,
  parseAllowlist,
  resolveOutbound,
  type Lookup,
} from './net-guard';
import { HttpError } from '../errors';

/** A resolver that answers from a table: no network in these tests. */
const fakeDns =
  (table: Record<string, string[]>): Lookup =>
  async (host) => {
    const list = table[host];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('address classes', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.10.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::a00:1', 'reserved'],
  ])('refuses %s as %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2606:4700:4700::1111'])(
    'admits the public address %s',
    (ip) => {
      expect(classifyAddress(ip)).toBeNull();
    },
  );

  it('judges IPv4-mapped IPv6 as IPv4', () => {
    expect(normalizeIp('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normalizeIp('10.1.2.3')).toBe('10.1.2.3');
  });
});

describe('allowlist', () => {
  const list = parseAllowlist(['sftp.internal', '127.0.0.1', ' 10.20.0.0/16 ', 'fd00::/8', '']);

  it('admits listed hosts (any address), IPs and CIDRs', () => {
    expect(isAllowlisted(list, 'SFTP.internal.', '10.9.9.9')).toBe(true);
    expect(isAllowlisted(list, 'x', '127.0.0.1')).toBe(true);
    expect(isAllowlisted(list, 'x', '::ffff:127.0.0.1')).toBe(true);
    expect(isAllowlisted(list, 'x', '10.20.5.5')).toBe(true);
    expect(isAllowlisted(list, 'x', 'fd00::5')).toBe(true);
    expect(isAllowlisted(list, 'x', '127.0.0.2')).toBe(false);
    expect(isAllowlisted(list, 'x', '10.21.0.1')).toBe(false);
  });
});

describe('resolveOutbound', () => {
  const dns = fakeDns({
    'files.example.com': ['203.0.113.10'],
    'internal.example.com': ['10.0.0.5'],
    'mixed.example.com': ['10.0.0.5', '198.51.100.7'],
    'metadata.example.com': ['169.254.169.254'],
    localhost: ['::1', '127.0.0.1'],
  });

  it('returns the resolved public address to connect to', async () => {
    await expect(resolveOutbound('files.example.com', [], dns)).resolves.toEqual({
      host: 'files.example.com',
      address: '203.0.113.10',
      family: 4,
      allowlisted: false,
    });
  });

  it('refuses a name that resolves to a private or metadata address (DNS cannot smuggle one in)', async () => {
    await expect(resolveOutbound('internal.example.com', [], dns)).rejects.toThrow(OutboundRefused);
    await expect(resolveOutbound('metadata.example.com', [], dns)).rejects.toThrow(
      /metadata address 169\.254\.169\.254/,
    );
  });

  it('refuses literal loopback, private and metadata IPs without a lookup', async () => {
    const noLookup: Lookup = async () => {
      throw new Error('must not resolve an IP');
    };
    for (const ip of ['127.0.0.1', '[::1]', '192.168.0.1', '169.254.169.254'])
      await expect(resolveOutbound(ip, [], noLookup)).rejects.toThrow(OutboundRefused);
    await expect(resolveOutbound('198.51.100.1', [], noLookup)).resolves.toMatchObject({
      address: '198.51.100.1',
    });
  });

  it('picks the first acceptable address of a name with several', async () => {
    await expect(resolveOutbound('mixed.example.com', [], dns)).resolves.toMatchObject({
      address: '198.51.100.7',
    });
  });

  it('admits what the allowlist names: an IP, a CIDR or the host name', async () => {
    await expect(resolveOutbound('localhost', ['127.0.0.1'], dns)).resolves.toMatchObject({
      address: '127.0.0.1',
      allowlisted: true,
    });
    await expect(resolveOutbound('internal.example.com', ['10.0.0.0/8'], dns)).resolves.toMatchObject({
      address: '10.0.0.5',
    });
    await expect(resolveOutbound('localhost', ['localhost'], dns)).resolves.toMatchObject({
      address: '::1',
      family: 6,
    });
  });

  it('passes a lookup failure through', async () => {
    await expect(resolveOutbound('nowhere.invalid', [], dns)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('turns a refusal into the 400 app error error.outboundAddressRefused for routes', async () => {
    const err = await guardOutbound('internal.example.com', [], 'sftpConnection', dns).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(400);
    expect(err.body.message).toBe('error.outboundAddressRefused');
    expect(err.headers['X-soaApp-error']).toBe('error.outboundAddressRefused');
    expect(err.body.detail).toMatch(/private address 10\.0\.0\.5/);
  });
});
