// A fixed-window request limit per principal (per API key's owner, or the local user), in memory; 0 turns
// it off. With
// several replicas each has its own window: the effective limit is the per-process one times the replicas
// that a client's requests reach (docs/deploy.md).

import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.ts';
import type { AppEnv } from './openapi.ts';

export function rateLimit(
  limit: number,
  windowMs: number,
  now: () => number = Date.now,
): MiddlewareHandler<AppEnv> {
  // 0 is "no limit" (MNESOS_RATE_LIMIT=0, serve --rate-limit 0): no window, no headers.
  if (limit === 0) return async (_c, next) => next();
  const windows = new Map<string, { start: number; count: number }>();
  return async (c, next) => {
    const id = c.get('principal').id;
    const t = now();
    let window = windows.get(id);
    if (window === undefined || t - window.start >= windowMs) {
      if (windows.size > 100_000) windows.clear();
      window = { start: t, count: 0 };
      windows.set(id, window);
    }
    window.count += 1;
    c.header('RateLimit-Limit', String(limit));
    c.header('RateLimit-Remaining', String(Math.max(0, limit - window.count)));
    if (window.count > limit) {
      const retry = Math.max(1, Math.ceil((window.start + windowMs - t) / 1000));
      c.header('Retry-After', String(retry));
      throw new ApiError(
        429,
        'rate_limited',
        `more than ${limit} requests in ${windowMs / 1000} s; retry in ${retry} s`,
        {
          limit,
          windowMs,
        },
      );
    }
    await next();
  };
}
