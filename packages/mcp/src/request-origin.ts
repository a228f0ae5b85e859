import { isIPv4 } from 'node:net';

/** True for `localhost` and the loopback IP literals (127.0.0.0/8, `[::1]`) as a URL's `hostname` spells them. */
function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || (isIPv4(hostname) && hostname.startsWith('127.'));
}

/** True for an address a server is bound to that only this machine reaches (127.0.0.0/8, `::1`, IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string): boolean {
  const unmapped = address.replace(/^::ffff:/i, '');
  return unmapped === '::1' || (isIPv4(unmapped) && unmapped.startsWith('127.'));
}

/** The `scheme://host[:port]` form of an http(s) origin, as browsers send it; undefined for anything else. */
export function normalizeOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined;
  return url.origin;
}

/**
 * Whether a request's `Origin` header may reach the server: absent (a non-browser client), a loopback origin
 * (http or https on localhost, 127.x.x.x or [::1], any port), or one of `allowed` (normalized origins).
 */
export function isAllowedOrigin(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  const normalized = normalizeOrigin(origin);
  if (normalized === undefined) return false;
  return isLoopbackHostname(new URL(normalized).hostname) || allowed.has(normalized);
}

/** Whether a `Host` header names this machine by a loopback name (what a DNS-rebound browser request never does). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  try {
    return isLoopbackHostname(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}
