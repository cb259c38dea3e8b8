/**
 * Guard for outbound connections to user-supplied hosts (SFTP test now, integrations later): resolves the
 * name once, refuses loopback, private, link-local, CGNAT, metadata and other non-public addresses unless
 * OUTBOUND_ALLOWLIST admits them (by host name, IP or CIDR), and hands back the checked IP so the caller
 * connects to exactly that address (no second lookup, hence no DNS rebinding between check and use).
 * Shared by the API (SFTP connection test) and the activities (actions, pollers, training).
 */
import dns from 'node:dns';
import net from 'node:net';

export type AddressClass =
  'unspecified' | 'loopback' | 'private' | 'link-local' | 'cgnat' | 'metadata' | 'multicast' | 'reserved';

export const OUTBOUND_REFUSED_KEY = 'error.outboundAddressRefused';

/** Cloud metadata endpoints, named first so the refusal says what they are. */
const METADATA: [string, number, 'ipv4' | 'ipv6'][] = [
  ['169.254.169.254', 32, 'ipv4'], // AWS, GCP, Azure, OpenStack
  ['169.254.170.2', 32, 'ipv4'], // AWS ECS task metadata
  ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud
  ['192.0.0.192', 32, 'ipv4'], // Oracle Cloud
  ['fd00:ec2::254', 128, 'ipv6'], // AWS IMDS over IPv6
];

const RANGES: [AddressClass, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['cgnat', '100.64.0.0', 10, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['reserved', '64:ff9b:1::', 48, 'ipv6'], // local-use NAT64 (RFC 8215): reaches a private network
  ['reserved', '100::', 64, 'ipv6'], // discard-only
  ['reserved', '2001:2::', 48, 'ipv6'], // benchmarking
  ['reserved', '2001:10::', 28, 'ipv6'], // ORCHID
  ['reserved', '2001:20::', 28, 'ipv6'], // ORCHIDv2
  ['reserved', '2001:db8::', 32, 'ipv6'], // documentation
  ['reserved', '3fff::', 20, 'ipv6'], // documentation (RFC 9637)
  ['reserved', '5f00::', 16, 'ipv6'], // SRv6 SIDs
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];

const blockLists: [AddressClass, net.BlockList][] = (() => {
  const byClass = new Map<AddressClass, net.BlockList>();
  const listOf = (c: AddressClass) => {
    if (!byClass.has(c)) byClass.set(c, new net.BlockList());
    return byClass.get(c)!;
  };
  for (const [ip, prefix, type] of METADATA) listOf('metadata').addSubnet(ip, prefix, type);
  for (const [c, ip, prefix, type] of RANGES) listOf(c).addSubnet(ip, prefix, type);
  return [...byClass.entries()];
})();

/**
 * The 16 bytes of an IPv6 address (`::`, embedded dotted quad and a `%zone` suffix accepted), or null.
 * Written here rather than trusting net.BlockList, which only knows the ::ffff:0:0/96 mapping.
 */
function ipv6Bytes(address: string): Uint8Array | null {
  const ip = address.replace(/%.*$/, '');
  if (net.isIPv6(ip) === false) return null;
  let head = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  let tail: number[] = [];
  if (v4) {
    tail = v4[1].split('.').map(Number);
    head = ip.slice(0, -v4[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const want = v4 ? 6 : 8;
  const [left, right] = head.split('::');
  const parts = (s: string | undefined) => (s ? s.split(':').filter(Boolean) : []);
  const groups =
    right === undefined
      ? parts(left)
      : [
          ...parts(left),
          ...Array(want - parts(left).length - parts(right).length).fill('0'),
          ...parts(right),
        ];
  if (groups.length !== want) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 0xff;
  });
  tail.forEach((b, i) => (bytes[12 + i] = b));
  return bytes;
}

const dotted = (b: ArrayLike<number>, at: number, invert = false) =>
  Array.from({ length: 4 }, (_, i) => (invert ? ~b[at + i] & 0xff : b[at + i])).join('.');
const zeros = (b: Uint8Array, from: number, to: number) => b.slice(from, to).every((x) => x === 0);
const word = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];

/** IPv4-mapped ::ffff:0:0/96: the operating system connects to the IPv4 address itself. */
const isMapped = (b: Uint8Array) => zeros(b, 0, 10) && word(b, 10) === 0xffff;

/**
 * The IPv4 addresses an IPv6 transition form carries or reaches, or null for any other address:
 * IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and 6to4 2002::/16 embed one;
 * Teredo 2001::/32 names its server (bits 32-63) and its client (the last 32 bits, inverted). A translator
 * or relay on the path may deliver such a packet to that IPv4 address, private ones included.
 */
function transitionForm(b: Uint8Array): { kind: 'embedded' | 'teredo'; v4: string[] } | null {
  if (zeros(b, 0, 12) && !zeros(b, 12, 15)) return { kind: 'embedded', v4: [dotted(b, 12)] };
  if (zeros(b, 0, 8) && word(b, 8) === 0xffff && word(b, 10) === 0)
    return { kind: 'embedded', v4: [dotted(b, 12)] };
  if (word(b, 0) === 0x64 && word(b, 2) === 0xff9b && zeros(b, 4, 12))
    return { kind: 'embedded', v4: [dotted(b, 12)] };
  if (word(b, 0) === 0x2002) return { kind: 'embedded', v4: [dotted(b, 2)] };
  if (word(b, 0) === 0x2001 && word(b, 2) === 0)
    return { kind: 'teredo', v4: [dotted(b, 4), dotted(b, 12, true)] };
  return null;
}

/** The IPv4 address an IPv6 address embeds (mapped, compatible, translated, NAT64, 6to4), or null. */
export function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address);
  if (!b) return null;
  if (isMapped(b)) return dotted(b, 12);
  const t = transitionForm(b);
  return t?.kind === 'embedded' ? t.v4[0] : null;
}

/**
 * An IPv4 address in any form inet_aton and the WHATWG URL parser accept (2130706433, 0177.0.0.1, 0x7f.1,
 * 127.1, a trailing dot) as a dotted quad, or null. The guard decides on the address the string stands for,
 * whichever parser the caller's host went through.
 */
export function looseIpv4(host: string): string | null {
  const parts = host.replace(/\.$/, '').split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = parseInt(p, 8);
    else if (/^(0|[1-9]\d*)$/.test(p)) n = Number(p);
    else return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  const value = nums.reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
  return [24, 16, 8, 0].map((s) => Math.floor(value / 2 ** s) % 256).join('.');
}

/** `::ffff:10.0.0.1` and `::ffff:a00:1` are 10.0.0.1: mapped IPv4 is judged (and connected to) as IPv4. */
export function normalizeIp(ip: string): string {
  if (net.isIP(ip) !== 6) return ip;
  const b = ipv6Bytes(ip);
  return b && isMapped(b) ? dotted(b, 12) : ip;
}

function classifyIpv4(ip: string): AddressClass | null {
  for (const [c, list] of blockLists) if (list.check(ip, 'ipv4')) return c;
  return null;
}

/** The non-public class of an address, or null for a public one. */
export function classifyAddress(address: string): AddressClass | null {
  const ip = normalizeIp(address);
  const family = net.isIP(ip);
  if (!family) throw new Error(`not an IP address: ${address}`);
  if (family === 4) return classifyIpv4(ip);
  const b = ipv6Bytes(ip);
  if (!b) throw new Error(`not an IP address: ${address}`);
  const bare = ip.replace(/%.*$/, '');
  for (const [c, list] of blockLists) if (list.check(bare, 'ipv6')) return c;
  // A transition form is judged by the IPv4 addresses it carries; a public one is still refused, since
  // these forms are deprecated or need a translator, and no real server is reached through them.
  const transition = transitionForm(b);
  if (transition) {
    for (const v4 of transition.v4) {
      const c = classifyIpv4(v4);
      if (c) return c;
    }
    return 'reserved';
  }
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return 'private'; // site-local fec0::/10 (deprecated)
  // Only global unicast 2000::/3 is public; its special-purpose blocks are in RANGES.
  if ((b[0] & 0xe0) !== 0x20) return 'reserved';
  return null;
}

export interface Allowlist {
  hosts: Set<string>;
  blocks: net.BlockList;
}

/** Parses OUTBOUND_ALLOWLIST entries: host names, IPs and CIDRs (IPv4 or IPv6). */
export function parseAllowlist(entries: readonly string[]): Allowlist {
  const hosts = new Set<string>();
  const blocks = new net.BlockList();
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const [ipPart, prefix] = entry.split('/');
    const ip = normalizeIp(ipPart);
    const family = net.isIP(ip);
    if (family && prefix !== undefined) blocks.addSubnet(ip, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
    else if (family) blocks.addAddress(ip, family === 4 ? 'ipv4' : 'ipv6');
    else hosts.add(entry.replace(/\.$/, ''));
  }
  return { hosts, blocks };
}

export function isAllowlisted(allowlist: Allowlist, host: string, address: string): boolean {
  if (allowlist.hosts.has(host.trim().toLowerCase().replace(/\.$/, ''))) return true;
  const ip = normalizeIp(address);
  const family = net.isIP(ip);
  return family !== 0 && allowlist.blocks.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

export interface ResolvedTarget {
  host: string;
  /** The checked address to connect to. */
  address: string;
  family: 4 | 6;
  /** Admitted by the allowlist (a loopback, private... address the deployment trusts), not public. */
  allowlisted: boolean;
}

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

export class OutboundRefused extends Error {
  constructor(
    public host: string,
    public reason: string,
  ) {
    super(`Connections to ${host} are not allowed (${reason}).`);
  }
}

/**
 * Resolves `host` and returns the first address that is public or allowlisted. Throws OutboundRefused when
 * every address is refused, or the lookup error when the name does not resolve.
 */
export async function resolveOutbound(
  host: string,
  allowlistEntries: readonly string[],
  lookup: Lookup = systemLookup,
): Promise<ResolvedTarget> {
  const name = host.trim().replace(/^\[(.*)\]$/, '$1');
  const allowlist = parseAllowlist(allowlistEntries);
  // A literal (in any IPv4 notation getaddrinfo accepts) is judged as the address it stands for, no lookup.
  const literal = net.isIP(name) ? name : looseIpv4(name);
  const addresses = literal ? [{ address: literal, family: net.isIP(literal) }] : await lookup(name);
  let reason = 'no address';
  for (const { address } of addresses) {
    const ip = normalizeIp(address);
    const cls = classifyAddress(ip);
    if (cls === null || isAllowlisted(allowlist, name, ip)) {
      return { host: name, address: ip, family: net.isIP(ip) as 4 | 6, allowlisted: cls !== null };
    }
    reason = `${cls} address ${ip}`;
  }
  throw new OutboundRefused(name, reason);
}
