// Who is asking. Two modes:
// - `keys`: every /v1 request carries `Authorization: Bearer <key>`; the key's sha256 is looked up in the
//   store (raw keys are never stored). Unknown or revoked keys are 401.
// - `local`: no keys configured. The server listens on loopback only and every request is the one local
//   user. A browser page elsewhere can still reach 127.0.0.1, so the Host header must name a loopback host
//   (DNS rebinding) and an Origin other than the server's own (another site, or another port on this
//   machine) is refused (CSRF); both are 403.

import type { MiddlewareHandler } from 'hono';
import { hashApiKey, isUniqueViolation, type Principal, type Store } from '../../adapters/store/index.ts';
import { ApiError } from './errors.ts';
import { isGuestKey } from './guests.ts';
import type { AppEnv } from './openapi.ts';

export type AuthConfig =
  /** `store`: where guests' keys are looked up (guests.ts); without it every request is the local user. */
  | { readonly kind: 'local'; readonly principal: Principal; readonly store?: Store }
  | { readonly kind: 'keys'; readonly store: Store; readonly allowedHosts?: readonly string[] };

/** How long a key lookup is trusted before the store is asked again (a revoked key stops within this). */
export const KEY_CACHE_MS = 10_000;

const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The host name of a Host header (`localhost:8080` → `localhost`, `[::1]:80` → `[::1]`). */
export function hostName(host: string): string {
  const text = host.trim().toLowerCase();
  if (text.startsWith('[')) return text.slice(0, text.indexOf(']') + 1);
  return text.split(':')[0] ?? '';
}

export function isLoopbackHostName(name: string): boolean {
  return LOOPBACK_HOSTNAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * Whether the Origin is this server's own: plain http (a local server speaks nothing else) on the host and
 * port the request was sent to.
 */
function sameHost(origin: string, host: string): boolean {
  try {
    const from = new URL(origin);
    return from.protocol === 'http:' && from.host === new URL(`http://${host.trim()}`).host;
  } catch (error) {
    // The URL constructor's one failure: text that is not a URL is not this server's origin.
    if (error instanceof TypeError) return false;
    throw error;
  }
}

function checkLocalRequest(request: Request): void {
  const host = request.headers.get('host');
  if (host === null || !isLoopbackHostName(hostName(host))) {
    throw new ApiError(
      403,
      'host_not_allowed',
      'this local server only answers requests addressed to localhost or 127.0.0.1',
    );
  }
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== 'null') {
    let originHost: string;
    try {
      originHost = new URL(origin).hostname.toLowerCase();
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      throw new ApiError(403, 'origin_not_allowed', 'the Origin header is not a URL');
    }
    if (!isLoopbackHostName(originHost)) {
      throw new ApiError(403, 'origin_not_allowed', 'cross-site requests are refused by this local server');
    }
    // Bound to the server's own origin: a page served by another program on this machine (another port)
    // is another origin, and must not drive the local user's games.
    if (!sameHost(origin, host)) {
      throw new ApiError(
        403,
        'origin_not_allowed',
        'requests from another origin (another port on this machine) are refused by this local server',
      );
    }
  } else if (origin === 'null') {
    throw new ApiError(
      403,
      'origin_not_allowed',
      'requests from opaque origins are refused by this local server',
    );
  }
}

function bearerKey(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (header === null) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Checks Host/Origin for every request in local mode and for the configured hosts in keys mode. */
export function hostCheck(config: AuthConfig): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (config.kind === 'local') checkLocalRequest(c.req.raw);
    else if (config.allowedHosts !== undefined && config.allowedHosts.length > 0) {
      const host = hostName(c.req.header('host') ?? '');
      if (!config.allowedHosts.includes(host))
        throw new ApiError(403, 'host_not_allowed', 'this host name is not served here');
    }
    await next();
  };
}

/** Sets `principal` for /v1 routes. */
export function authenticate(config: AuthConfig, now: () => number = Date.now): MiddlewareHandler<AppEnv> {
  const cache = new Map<string, { principal: Principal; until: number }>();
  return async (c, next) => {
    const key = bearerKey(c.req.raw);
    if (config.kind === 'local') {
      // A guest of the local user's table sends their own key; anything else is the local user, as always.
      const guest = config.store !== undefined && key !== undefined && isGuestKey(key);
      c.set('principal', guest ? await principalOfKey(config.store!, key!, cache, now) : config.principal);
      return next();
    }
    if (key === undefined) {
      c.header('WWW-Authenticate', 'Bearer');
      throw new ApiError(401, 'unauthorized', 'send an API key as Authorization: Bearer <key>');
    }
    try {
      c.set('principal', await principalOfKey(config.store, key, cache, now));
    } catch (error) {
      if (error instanceof ApiError) c.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      throw error;
    }
    return next();
  };
}

/** The principal of a key, from the cache while fresh (KEY_CACHE_MS), else the store; 401 when unknown. */
async function principalOfKey(
  store: Store,
  key: string,
  cache: Map<string, { principal: Principal; until: number }>,
  now: () => number,
): Promise<Principal> {
  const hash = hashApiKey(key);
  const cached = cache.get(hash);
  if (cached !== undefined && cached.until > now()) return cached.principal;
  const principal = await store.findPrincipalByKeyHash(hash);
  if (principal === undefined) {
    cache.delete(hash);
    throw new ApiError(401, 'unauthorized', 'the API key is not valid');
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(hash, { principal, until: now() + KEY_CACHE_MS });
  return principal;
}

/** `label=key` or a bare key, from MNESOS_API_KEYS (comma-separated). */
export function parseApiKeys(text: string | undefined): Array<{ label: string; key: string }> {
  const out: Array<{ label: string; key: string }> = [];
  for (const part of (text ?? '').split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const label = eq > 0 ? item.slice(0, eq).trim() : '';
    const key = eq > 0 ? item.slice(eq + 1).trim() : item;
    if (key.length < 16)
      throw new RangeError('every API key in MNESOS_API_KEYS must be at least 16 characters');
    out.push({ label: label || `key-${hashApiKey(key).slice(0, 8)}`, key });
  }
  return out;
}

/**
 * Makes each configured key's principal exist (one principal per key, its id derived from the key's hash,
 * so sessions keep their owner across restarts and replicas) and stores the hash.
 */
export async function installApiKeys(
  store: Store,
  keys: ReadonlyArray<{ label: string; key: string }>,
): Promise<Principal[]> {
  const principals: Principal[] = [];
  for (const { label, key } of keys) {
    const hash = hashApiKey(key);
    const id = `key-${hash.slice(0, 24)}`;
    let principal = await store.getPrincipal(id);
    if (principal === undefined) {
      try {
        principal = await store.createPrincipal({ id, name: label });
      } catch (error) {
        // Another replica created it at the same moment: that is a unique violation, and nothing else is.
        if (!isUniqueViolation(error)) throw error;
        principal = await store.getPrincipal(id);
        if (principal === undefined) throw error;
      }
    }
    const added = await store.addApiKey({ principalId: principal.id, keyHash: hash, label });
    if (!added.ok && added.reason !== 'key-taken')
      throw new Error(`cannot store API key '${label}': ${added.reason}`);
    principals.push(principal);
  }
  return principals;
}

/** The one local user of a server without keys. */
export async function localPrincipal(store: Store): Promise<Principal> {
  const id = 'local-user';
  const existing = await store.getPrincipal(id);
  if (existing !== undefined) return existing;
  try {
    return await store.createPrincipal({ id, name: 'local user' });
  } catch (error) {
    // Only a concurrent first start (a unique violation) is retried as a read.
    if (!isUniqueViolation(error)) throw error;
    const again = await store.getPrincipal(id);
    if (again === undefined) throw error;
    return again;
  }
}
