import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Longest accepted target URL. */
export const MAX_WEBHOOK_URL = 2048;

/** Loopback, private, link-local, unspecified, CGNAT and multicast ranges. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? PRIVATE.check(mapped[1], 'ipv4') : PRIVATE.check(address, 'ipv6');
  }
  return false;
}

/**
 * Why a subscription's URL is refused, or null when it is accepted: an http(s) URL of at
 * most 2048 characters, without credentials; unless private targets are allowed, not
 * `localhost` nor an address literal in a private range. (A name is checked again when a
 * delivery resolves it, `resolvesPrivate`.)
 */
export function targetProblem(raw: string, allowPrivate: boolean): string | null {
  if (raw.length > MAX_WEBHOOK_URL) return `url must be at most ${MAX_WEBHOOK_URL} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must be an absolute http or https URL';
  if (url.username || url.password) return 'url must not contain credentials';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)) {
    return 'url must not point to a loopback, private or link-local address';
  }
  return null;
}

/** At delivery: whether the URL's host resolves to a private address (refused unless allowed). */
export async function resolvesPrivate(raw: string): Promise<boolean> {
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host);
  const addresses = await lookup(host, { all: true });
  return addresses.some((a) => isPrivateAddress(a.address));
}
