/**
 * The client address as limits count it. Fastify's `request.ip` is the socket's address, or the address the
 * trusted proxies say (TRUST_PROXY: a hop count or their addresses, never "everyone"). An IPv6 client holds a
 * whole /64 (RFC 6177 hands out /48 to /64 per site; privacy addresses rotate inside it), so its /64 is one
 * client; an IPv4-mapped IPv6 address is its IPv4 address.
 */
import { isIPv4, isIPv6 } from 'node:net';

export function limitKey(ip: string): string {
  const address = ip.split('%')[0] ?? ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, in lower-case hex without leading zeros. */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.toLowerCase().split('::');
  const groups = (part: string): string[] => {
    if (part === '') return [];
    const parts = part.split(':');
    const last = parts.at(-1) ?? '';
    // An embedded IPv4 tail (`::1.2.3.4`) is two groups.
    if (isIPv4(last)) {
      const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number);
      parts.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
    }
    return parts.map((group) => Number.parseInt(group, 16).toString(16));
  };
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  return [...front, ...Array(8 - front.length - back.length).fill('0'), ...back];
}
