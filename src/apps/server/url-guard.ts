// One string policy for URLs too: PostgreSQL fails on a NUL in a query parameter, SQLite does
// not, so a NUL in a /v1 path is answered 404 before any query (no id, name or hash can hold one) and one
// in the query string 400 `invalid_string`, the same on both databases.

import type { MiddlewareHandler } from 'hono';
import { storableTextProblem } from '../../core/text-policy.ts';
import { ApiError } from './errors.ts';
import type { AppEnv } from './openapi.ts';

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function refuseUnstorableUrl(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Only a percent escape can put a NUL or a lone surrogate in a path or query: Node's HTTP parser refuses
    // a raw NUL, and the raw bytes of a request line are read one character each (never a surrogate).
    if (!c.req.url.includes('%')) return next();
    const url = new URL(c.req.url);
    for (const segment of url.pathname.split('/')) {
      if (storableTextProblem(decoded(segment)) !== undefined)
        throw new ApiError(404, 'not_found', 'no such resource (the path holds a character no id can)');
    }
    for (const [key, value] of url.searchParams) {
      const problem = storableTextProblem(key) ?? storableTextProblem(value);
      if (problem !== undefined) {
        throw new ApiError(
          400,
          'invalid_string',
          `query parameter '${key.replaceAll('\u0000', '')}': ${problem}`,
          {
            parameter: key.replaceAll('\u0000', ''),
          },
        );
      }
    }
    await next();
  };
}
