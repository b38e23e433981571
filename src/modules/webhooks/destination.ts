// Where a webhook may be sent (contract 13): https:// only, and neither the URL's host nor any
// address its name resolves to may be loopback, private, link-local, CGNAT, multicast or reserved.
// Addresses are judged after parsing, never as text: the WHATWG URL parser already turns
// `2130706433` and `0x7f.1` into 127.0.0.1, and IPv4-mapped IPv6 (`::ffff:7f00:1`) is judged as the
// IPv4 address it carries. At delivery the check runs inside the connection's own lookup
// (pinnedLookup), so the address dialed is the address checked: a DNS answer that changes between
// a check and the connect cannot slip through. WEBHOOK_ALLOW_PRIVATE_URLS lifts all of it.
// Local development: on the embedded database (no DATABASE_URL), test mode may also send to
// loopback (http://127.0.0.1:…, http://localhost:…), where a developer's receiver listens; live
// mode never, and a PostgreSQL server's deployment only with WEBHOOK_ALLOW_PRIVATE_URLS. Every
// refusal names the setting, so a developer refused a local URL knows what to set.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { Mode } from '../../scope.js';

/**
 * Which destinations a webhook may have: public addresses only; also loopback ones (test mode on
 * the embedded database); or any http(s) URL (WEBHOOK_ALLOW_PRIVATE_URLS).
 */
export type DestinationPolicy = 'public' | 'public_or_loopback' | 'any';

/** What the policy of a mode depends on: the setting and whether the database is the embedded one. */
export interface DestinationRules {
  allowPrivate: boolean;
  loopbackInTestMode: boolean;
}

export function destinationRules(config: { webhookAllowPrivateUrls: boolean; databaseUrl: string | null }): DestinationRules {
  return { allowPrivate: config.webhookAllowPrivateUrls, loopbackInTestMode: config.databaseUrl === null };
}

export function destinationPolicy(rules: DestinationRules, mode: Mode): DestinationPolicy {
  if (rules.allowPrivate) return 'any';
  return rules.loopbackInTestMode && mode === 'test' ? 'public_or_loopback' : 'public';
}

/** The end of every refusal: what would allow the URL. */
function settingHint(policy: DestinationPolicy): string {
  return policy === 'public_or_loopback'
    ? ' (test mode on the embedded database accepts loopback URLs too; WEBHOOK_ALLOW_PRIVATE_URLS=1 allows http:// and private addresses)'
    : ' (WEBHOOK_ALLOW_PRIVATE_URLS=1 allows http:// and private addresses; without DATABASE_URL, test mode accepts loopback URLs such as http://127.0.0.1:4242/hooks)';
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b::', 96], // NAT64: carries an IPv4 address of any kind
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address of any kind
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (a valid one, as net.isIP says). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, -v4[1]!.length).replace(/:$/, '') || ':';
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = [...parse(rest), ...tail];
  if (rest === undefined && !text.includes('::')) return [...front, ...tail];
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** True when the address (an IP literal, without brackets) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const groups = ipv6Groups(address.toLowerCase().replace(/%.*$/, ''));
  // IPv4-mapped (::ffff:a.b.c.d): judged as the IPv4 address it is.
  if (groups.length === 8 && groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi, lo] = [groups[6]!, groups[7]!];
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return !blocked.check(address, 'ipv6');
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** True when the address (an IP literal, without brackets) is a loopback one, IPv4-mapped too. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return loopback.check(address, 'ipv4');
  if (family !== 6) return false;
  const groups = ipv6Groups(address.toLowerCase().replace(/%.*$/, ''));
  if (groups.length === 8 && groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi, lo] = [groups[6]!, groups[7]!];
    return isLoopbackAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return groups.length === 8 && groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1;
}

/** Whether the policy lets a connection dial this address. */
export function addressAllowed(address: string, policy: DestinationPolicy): boolean {
  if (policy === 'any') return true;
  return isPublicAddress(address) || (policy === 'public_or_loopback' && isLoopbackAddress(address));
}

function isLoopbackName(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost');
}

/** The URL's host is loopback as written: a loopback address, or localhost (never resolved elsewhere). */
export function isLoopbackHost(url: URL): boolean {
  const literal = ipLiteralOf(url);
  return literal !== null ? isLoopbackAddress(literal) : isLoopbackName(url.hostname);
}

/** The URL's host as an IP literal without brackets, or null when it is a name. */
export function ipLiteralOf(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** Every address the system resolver gives for a name. */
export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/**
 * Why a URL may not be a webhook destination (to follow "The url "), or null when it may. Names
 * are resolved. `policy` true or false stands for 'any' or 'public'.
 */
export async function refusalOfUrl(text: string, policy: DestinationPolicy | boolean, resolver: Resolver = systemResolver): Promise<string | null> {
  const rules: DestinationPolicy = policy === true ? 'any' : policy === false ? 'public' : policy;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute https:// URL';
  }
  if (rules === 'any') return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'must be an http:// or https:// URL';
  const hint = settingHint(rules);
  const loopbackAllowed = rules === 'public_or_loopback' && isLoopbackHost(url);
  if (url.protocol !== 'https:' && !(loopbackAllowed && url.protocol === 'http:')) {
    return rules === 'public_or_loopback' ? `must be an https:// URL, or an http:// one on a loopback address${hint}` : `must be an https:// URL${hint}`;
  }
  if (loopbackAllowed) return null;
  const literal = ipLiteralOf(url);
  if (literal !== null) return addressAllowed(literal, rules) ? null : `must not point at a loopback, private, link-local or reserved address${hint}`;
  if (isLoopbackName(url.hostname)) return `must not point at a loopback address${hint}`;
  let addresses: LookupAddress[];
  try {
    addresses = await resolver(url.hostname);
  } catch {
    // A name that does not resolve yet is refused at delivery if it then resolves somewhere private.
    return null;
  }
  return addresses.every((a) => addressAllowed(a.address, rules))
    ? null
    : `must not resolve to a loopback, private, link-local or reserved address${hint}`;
}

/** The error a connection refused by pinnedLookup fails with. */
export class BlockedDestinationError extends Error {
  readonly code = 'WEBHOOK_BLOCKED_DESTINATION';
  constructor(hostname: string) {
    super(`${hostname} resolves to an address that is not on the public internet (WEBHOOK_ALLOW_PRIVATE_URLS=1 allows private addresses)`);
  }
}

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that resolves the name, refuses it unless every address is
 * public, and hands the connection exactly the addresses it checked.
 */
export function pinnedLookup(resolver: Resolver, policy: DestinationPolicy = 'public') {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolver(hostname).then(
      (addresses) => {
        if (addresses.length === 0 || !addresses.every((a) => addressAllowed(a.address, policy))) {
          callback(new BlockedDestinationError(hostname), options.all ? [] : '');
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: Error) => callback(err, options.all ? [] : ''),
    );
  };
}
