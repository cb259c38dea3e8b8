import {
  classifyAddress,
  embeddedIpv4,
  isAllowlisted,
  normalizeIp,
  OutboundRefused,
  parseAllowlist,
  resolveOutbound,
  type Lookup,
} from './net-guard';

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
  ])('refuses %s as %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2606:4700:4700::1111'])(
    'admits the public address %s',
    (ip) => {
      expect(classifyAddress(ip)).toBeNull();
    },
  );

  // Every IPv6 form that embeds an IPv4 address or reaches one through a translator or tunnel.
  it.each([
    // IPv4-compatible ::/96 (the finding: [::127.0.0.1] got through)
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['::a9fe:a9fe', 'metadata'],
    ['::8.8.8.8', 'reserved'], // deprecated form: never a legitimate target
    ['::2', 'reserved'],
    // IPv4-mapped ::ffff:0:0/96, dotted and hex
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:192.168.0.1', 'private'],
    ['0:0:0:0:0:ffff:a00:1', 'private'],
    // IPv4-translated ::ffff:0:0:0/96
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'metadata'],
    ['::ffff:0:8.8.8.8', 'reserved'],
    // NAT64 well-known 64:ff9b::/96 and local-use 64:ff9b:1::/48
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::8.8.8.8', 'reserved'],
    ['64:ff9b:1::808:808', 'reserved'],
    ['64:ff9b:1:abcd::7f00:1', 'reserved'],
    // 6to4 2002::/16 (IPv4 in bits 16-47)
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:808:808::1', 'reserved'],
    // Teredo 2001::/32 (server IPv4 in bits 32-63, client IPv4 inverted in the last 32 bits)
    ['2001:0:7f00:1::1', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], // client 127.0.0.1 (inverted 80ff:fffe)
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    // other IETF special-purpose IPv6
    ['2001:db8::1', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['100::1', 'reserved'],
    ['fec0::1', 'private'], // site-local (deprecated)
    ['feff::1', 'private'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff05::2', 'multicast'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['0::1', 'loopback'],
    ['4000::1', 'reserved'], // outside global unicast 2000::/3
  ])('refuses the IPv6 form %s as %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it.each([
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '2003::1',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
  ])('admits the public IPv6 address %s', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });

  it('reads the IPv4 address an IPv6 address embeds', () => {
    expect(embeddedIpv4('::127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIpv4('64:ff9b::a00:1')).toBe('10.0.0.1');
    expect(embeddedIpv4('2002:c0a8:101::1')).toBe('192.168.1.1');
    expect(embeddedIpv4('2001:4860::1')).toBeNull();
  });

  it('judges IPv4-mapped IPv6 as IPv4', () => {
    expect(normalizeIp('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(normalizeIp('::ffff:808:808')).toBe('8.8.8.8');
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

  it.each([
    '[::127.0.0.1]',
    '[::7f00:1]',
    '[::ffff:0:7f00:1]',
    '[64:ff9b::7f00:1]',
    '[2002:7f00:1::]',
    '[fec0::1]',
  ])('refuses the IPv6 literal %s without a lookup', async (host) => {
    const noLookup: Lookup = async () => {
      throw new Error('must not resolve an IP');
    };
    await expect(resolveOutbound(host, [], noLookup)).rejects.toThrow(OutboundRefused);
  });

  it('refuses a name whose AAAA record embeds a private IPv4 address', async () => {
    const aaaa = fakeDns({ 'sneaky.example.com': ['::127.0.0.1', '64:ff9b::a9fe:a9fe'] });
    await expect(resolveOutbound('sneaky.example.com', [], aaaa)).rejects.toThrow(
      /metadata address 64:ff9b::a9fe:a9fe/,
    );
  });

  // Decimal, octal, hexadecimal and short IPv4 forms: the WHATWG URL parser and getaddrinfo both read them
  // as 127.0.0.1, and so does the guard, whichever of them the host string came through.
  it.each([
    '2130706433',
    '0177.0.0.1',
    '0x7f.1',
    '127.1',
    '0x7f000001',
    '017700000001',
    '127.0.1',
    '0x7F.0.0.0x1',
    '127.0.0.1.',
  ])('refuses the IPv4 literal trick %s, decided on the address it stands for', async (host) => {
    // the system resolver (numeric forms need no network) and no lookup at all give the same answer
    await expect(resolveOutbound(host, [])).rejects.toThrow(/loopback address 127\.0\.0\.1/);
    const noLookup: Lookup = async () => {
      throw new Error('must not resolve an IP');
    };
    await expect(resolveOutbound(host, [], noLookup)).rejects.toThrow(/loopback address 127\.0\.0\.1/);
    const viaUrl = new URL(`http://${host}/`).hostname;
    expect(viaUrl).toBe('127.0.0.1');
    await expect(resolveOutbound(viaUrl, [])).rejects.toThrow(OutboundRefused);
    // the allowlist still admits it, and the caller connects to the dotted address
    await expect(resolveOutbound(host, ['127.0.0.1'])).resolves.toMatchObject({
      address: '127.0.0.1',
      family: 4,
      allowlisted: true,
    });
  });

  it('keeps the allowlist working for the IPv6 forms (an allowlisted CIDR admits them)', async () => {
    const noLookup: Lookup = async () => {
      throw new Error('must not resolve an IP');
    };
    await expect(resolveOutbound('[::ffff:7f00:1]', ['127.0.0.1'], noLookup)).resolves.toMatchObject({
      address: '127.0.0.1',
      family: 4,
      allowlisted: true,
    });
    await expect(resolveOutbound('[fd00::5]', ['fd00::/8'], noLookup)).resolves.toMatchObject({
      address: 'fd00::5',
      allowlisted: true,
    });
    await expect(resolveOutbound('[::127.0.0.1]', ['::127.0.0.1'], noLookup)).resolves.toMatchObject({
      allowlisted: true,
    });
    await expect(resolveOutbound('[::127.0.0.1]', ['127.0.0.1'], noLookup)).rejects.toThrow(OutboundRefused);
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
});
