/**
 * Guard for outbound connections to user-supplied hosts (SFTP test now, integrations later): resolves the
 * name once, refuses loopback, private, link-local, CGNAT, metadata and other non-public addresses unless
 * OUTBOUND_ALLOWLIST admits them (by host name, IP or CIDR), and hands back the checked IP so the caller
 * connects to exactly that address (no second lookup, hence no DNS rebinding between check and use).
 */
import dns from 'node:dns';
import net from 'node:net';
import { appError } from '../errors';

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
  ['reserved', '64:ff9b::', 96, 'ipv6'], // NAT64 could reach any IPv4, private included
  ['reserved', '100::', 64, 'ipv6'],
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

/** `::ffff:10.0.0.1` is 10.0.0.1: mapped IPv4 is judged as IPv4. */
export function normalizeIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1] : ip;
}

/** The non-public class of an address, or null for a public one. */
export function classifyAddress(address: string): AddressClass | null {
  const ip = normalizeIp(address);
  const family = net.isIP(ip);
  if (!family) throw new Error(`not an IP address: ${address}`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [c, list] of blockLists) if (list.check(ip, type)) return c;
  // Mapped IPv4 in hex form (::ffff:7f00:1) and other ::ffff:0:0/96 forms
  if (type === 'ipv6' && /^::ffff:/i.test(ip)) return 'reserved';
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
  const addresses = net.isIP(name) ? [{ address: name, family: net.isIP(name) }] : await lookup(name);
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

/** resolveOutbound for a route: a refusal becomes the 400 app error `error.outboundAddressRefused`. */
export async function guardOutbound(
  host: string,
  allowlistEntries: readonly string[],
  entityName: string,
  lookup?: Lookup,
): Promise<ResolvedTarget> {
  try {
    return await resolveOutbound(host, allowlistEntries, lookup);
  } catch (err) {
    if (err instanceof OutboundRefused) {
      const e = appError('error.outboundAddressRefused', entityName);
      e.body.detail = err.message;
      throw e;
    }
    throw err;
  }
}
