import { isIP } from 'node:net';

/**
 * Host names and listening addresses, read one way by the mock (its control API's Host rule, its exposure check
 * at start) and by `teamchat proxy` (what it forwards to a control API): shared like cli/common.ts, importing
 * neither side.
 */

/** A Host header's name: lower case, without its port or an IPv6 address's brackets; null when it is no host. */
export function hostnameOf(host: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[\w.-]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match ? bare(match[1]!.toLowerCase()) : null;
}

/** An address without the brackets of an IPv6 literal (`[::1]` → `::1`). */
export const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/**
 * Whether a Host header names this machine by an IP address (which no DNS answer can rebind) or by one of
 * `names` (lower case; `localhost` among them where it counts).
 */
export function isLocalHostHeader(host: string | undefined, names: ReadonlySet<string>): boolean {
  const name = hostnameOf(host ?? '');
  return name !== null && (isIP(name) !== 0 || names.has(name));
}

/** Whether a listening address (or `localhost`) reaches loopback only: 127.0.0.0/8, ::1, an IPv4-mapped loopback. */
export function isLoopbackAddress(address: string): boolean {
  const plain = bare(address).toLowerCase();
  if (plain === '::1' || plain === 'localhost') return true;
  const v4 = plain.startsWith('::ffff:') ? plain.slice('::ffff:'.length) : plain;
  return isIP(v4) === 4 && v4.startsWith('127.');
}
