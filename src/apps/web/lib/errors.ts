// What the server answers when something is wrong (`{error: {code, message, ...details}}`, the contract's
// errorResponse), read with the contract's schemas: a proxy or a crash may answer with anything, and what
// does not match is an error of the status alone, never a value coerced into shape.

import * as z from 'zod/mini';
import { errorResponse } from '../../contract/index.ts';

export interface Problem {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly code?: string | undefined;
}

export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** `file:line:col` problems (cartridge validation), when the server sent them. */
    readonly problems: readonly Problem[] = [],
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

const place = { file: z.nullish(z.string()), line: z.nullish(z.number()), col: z.nullish(z.number()) };
/** A diagnostic in either shape the server uses: `{file,line,col,…}` (a check) or `{place:{…},…}` (explore). */
const problemSchema = z.union([
  z.object({ place: z.object(place), message: z.string(), code: z.optional(z.string()) }),
  z.object({ ...place, message: z.string(), code: z.optional(z.string()) }),
]);
/** A field problem of a 400 `invalid_request`. */
const issueSchema = z.object({ path: z.optional(z.string()), message: z.string() });

/** The items of `value` that `schema` accepts (one odd item does not hide the others). */
function itemsOf<S extends z.core.$ZodType>(schema: S, value: unknown): z.infer<S>[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = z.safeParse(schema, item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Diagnostics as `file:line:col` problems; one without a place is at `?:0:0`. */
export function problemsOf(value: unknown): Problem[] {
  return itemsOf(problemSchema, value).map((item) => {
    const at = 'place' in item ? item.place : item;
    return {
      file: at.file ?? '?',
      line: at.line ?? 0,
      col: at.col ?? 0,
      message: item.message,
      code: item.code,
    };
  });
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.message}`;
}

/** Builds the failure from a status and a parsed (or unparsable) body. */
export function failureOf(status: number, body: unknown): ApiFailure {
  const parsed = z.safeParse(errorResponse, body);
  if (!parsed.success) return new ApiFailure(status, `http_${status}`, `the server answered ${status}`);
  const error = parsed.data.error;
  return new ApiFailure(
    status,
    error.code,
    error.message,
    problemsOf(error.errors ?? error.diagnostics),
    error,
  );
}

/**
 * A response's JSON body (undefined when empty or not JSON), or, for an error status, the ApiFailure it
 * describes. One reading for every client of the API.
 */
export async function readAnswer(response: Response): Promise<unknown> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) throw failureOf(response.status, parsed);
  return parsed;
}

/** The field problems of a 400 `invalid_request` (`issues: [{path, message}]`) as `path: message` lines. */
export function issueLines(failure: ApiFailure): string[] {
  return itemsOf(issueSchema, failure.details.issues).map((issue) =>
    issue.path === undefined ? issue.message : `${issue.path}: ${issue.message}`,
  );
}

/** A failure as one line for the player: the server's message and, for a refused form, each field's problem. */
export function failureText(error: unknown): string {
  if (error instanceof ApiFailure) {
    const lines = issueLines(error);
    return lines.length > 0 ? `${error.message}: ${lines.join('; ')}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** `failureText` and, for a refused cartridge, each of its problems (`file:line:col: message`). */
export function failureWithProblems(error: unknown): string {
  const problems = error instanceof ApiFailure ? error.problems : [];
  return `${failureText(error)}${problems.length > 0 ? `: ${problems.map(formatProblem).join('; ')}` : ''}`;
}
