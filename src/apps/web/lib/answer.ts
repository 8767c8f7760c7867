// An answer of the API parsed with the contract's schema (apps/contract): one that does not match is an
// ApiFailure `bad_response` naming the request and its first wrong fields, which the UI shows like any
// other failure, never a view built on a cast.

import { type core, safeParse } from 'zod/mini';
import { responseProblems } from '../../contract/index.ts';
import { ApiFailure } from './errors.ts';

/** Field problems named in a bad_response message; the rest are counted. */
export const MAX_SHOWN_PROBLEMS = 3;

/** The failure of an answer that does not match its schema (`request` names it: `GET /v1/sessions`). */
export function badResponse(problems: readonly string[], request: string, status = 200): ApiFailure {
  const shown = problems.slice(0, MAX_SHOWN_PROBLEMS).join('; ');
  const more =
    problems.length > MAX_SHOWN_PROBLEMS ? ` (and ${problems.length - MAX_SHOWN_PROBLEMS} more)` : '';
  return new ApiFailure(
    status,
    'bad_response',
    `the server's answer to ${request} is not what this client expects: ${shown}${more}`,
    [],
    { problems },
  );
}

/** `body` parsed with `schema`, or a thrown `bad_response` ApiFailure. */
export function parseAnswer<S extends core.$ZodType>(
  schema: S,
  body: unknown,
  request: string,
  status = 200,
): core.output<S> {
  const result = safeParse(schema, body, { reportInput: true });
  if (result.success) return result.data;
  throw badResponse(responseProblems(result.error), request, status);
}
