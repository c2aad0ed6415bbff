import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Which addresses a user's webhook may reach: never loopback, private,
 * shared (CGNAT), link-local (with the cloud metadata address 169.254.169.254),
 * multicast, reserved nor unspecified ones, in IPv4 or IPv6 (IPv4-mapped and
 * NAT64 addresses judged by the IPv4 address they carry). The check is made
 * on the address connected to (lookupGuarded), so a name that resolves to a
 * public address when saved and a private one when sent (DNS rebinding) is
 * still refused.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (any notation Node accepts, an embedded IPv4 tail included). */
const ipv6Bytes = (address: string): Buffer | undefined => {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const octets = tail[1]!.split('.').map(Number);
    text = `${text.slice(0, -tail[1]!.length)}${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return undefined;
  const bytes = Buffer.alloc(16);
  groups.forEach((group, index) => bytes.writeUInt16BE(parseInt(group || '0', 16), index * 2));
  return bytes;
};

/** The IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d), if any. */
const embeddedIpv4 = (bytes: Buffer): string | undefined => {
  const zero = (from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0);
  const mapped = zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff;
  const compatible = zero(0, 12) && !zero(12, 16);
  const nat64 = bytes.readUInt32BE(0) === 0x0064ff9b && zero(4, 12);
  return mapped || compatible || nat64 ? [...bytes.subarray(12, 16)].join('.') : undefined;
};

/** Whether an IP address (v4 or v6 text) is one a webhook must not reach. Anything not an IP address counts as refused. */
export const isForbiddenAddress = (address: string): boolean => {
  const version = isIP(address.replace(/%.*$/, ''));
  if (version === 4) return blocked.check(address, 'ipv4');
  if (version !== 6) return true;
  const bytes = ipv6Bytes(address);
  if (!bytes) return true;
  const v4 = embeddedIpv4(bytes);
  if (v4 !== undefined) return blocked.check(v4, 'ipv4');
  const canonical = Array.from({ length: 8 }, (_, index) => bytes.readUInt16BE(index * 2).toString(16)).join(':');
  return blocked.check(canonical, 'ipv6');
};

export class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
  constructor(readonly host: string) {
    super(`${host} resolves to an address webhooks may not reach (loopback, private, link-local or metadata)`);
    this.name = 'ForbiddenAddressError';
  }
}

type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** The host of a URL as an address or a name ("[::1]" -> "::1"). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Whether the URL's host is, or resolves only to, addresses a webhook may
 * reach (at save time). A name that does not resolve is refused as well.
 */
export const checkWebhookHost = async (url: URL, allowPrivate: boolean, resolve: Resolve = systemResolve): Promise<'ok' | 'forbidden' | 'unresolved'> => {
  if (allowPrivate) return 'ok';
  const host = hostOf(url);
  if (isIP(host)) return isForbiddenAddress(host) ? 'forbidden' : 'ok';
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return 'unresolved';
  }
  if (addresses.length === 0) return 'unresolved';
  return addresses.some((entry) => isForbiddenAddress(entry.address)) ? 'forbidden' : 'ok';
};

/**
 * A `lookup` for node:http(s) that resolves the name and fails the connection
 * when any resolved address is forbidden (the connection then goes nowhere).
 * Node does not call a lookup for an IP literal: the sender checks those itself.
 */
export const lookupGuarded =
  (allowPrivate: boolean, resolve: Resolve = systemResolve): LookupFunction =>
  (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const family = typeof options === 'object' && options ? options.family : undefined;
        const usable = addresses.filter((entry) => !family || entry.family === family);
        if (!allowPrivate && usable.some((entry) => isForbiddenAddress(entry.address))) {
          callback(new ForbiddenAddressError(hostname), '', 4);
          return;
        }
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 4);
          return;
        }
        if (typeof options === 'object' && options?.all) (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
