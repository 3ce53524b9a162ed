import { isLocalHostHeader } from '../../../cli/hosts.js';

export { isLoopbackAddress } from '../../../cli/hosts.js';

/**
 * What `teamchat proxy` forwards when it listens beyond loopback (`--host 0.0.0.0`, a LAN address).
 *
 * The proxy sends every request to the target with the target's own Host, from this machine: to a mock
 * listening on loopback without a control token, a request through the proxy looks like the developer's own.
 * Bound beyond loopback, that would hand the network the mock's control API (`/__mock/realms/demo/credentials`
 * lists every API key; realms can be reset or deleted) and its inspector. `teamchat serve` refuses to expose
 * them so; the proxy keeps forwarding the API (a phone or another machine testing a client is why one binds
 * it wider) and answers 403 for the control API, the inspector and its page at `/`.
 */

/**
 * Whether a request's Host names this machine by address or `localhost` (or the proxy's own `--host`). On
 * loopback too the proxy forwards the control API only then: the target sees the proxy's loopback Host, not the
 * page's, so the mock's own Host rule cannot see a DNS-rebound page (`evil.example:9992` resolving to 127.0.0.1).
 */
export const isLocalHost = (host: string | undefined, ownHost?: string): boolean =>
  isLocalHostHeader(host, new Set(['localhost', ...(ownHost === undefined ? [] : [ownHost.toLowerCase()])]));

/**
 * Whether a request for `pathAndQuery` would reach the target's control API or inspector. The path is read as
 * the target will see it (`new URL` resolves `..`, `%2e%2e` and the like, as the forwarding request does) and
 * compared without regard to case, percent-encoding or repeated slashes, since express matches mounts so.
 * What cannot be read at all is refused too: it could be anything once the target decodes it.
 */
export function reachesControl(base: string, pathAndQuery: string): boolean {
  let path: string;
  try {
    const basePath = new URL(base).pathname.replace(/\/+$/, '');
    const full = new URL(base + pathAndQuery).pathname;
    if (!full.startsWith(basePath)) return true;
    path = decodeURIComponent(full.slice(basePath.length));
  } catch {
    return true;
  }
  const plain = path.toLowerCase().replace(/\/{2,}/g, '/');
  return plain === '' || plain === '/' || plain.startsWith('/__mock') || plain.startsWith('/__inspector');
}
