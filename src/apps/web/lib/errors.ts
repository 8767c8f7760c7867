import { isRecord } from '../../../core/is-record.ts';
// What the server answers when something is wrong (`{error: {code, message, ...details}}`), read without
// trusting its shape: a proxy or a crash may answer with anything.

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

/** Diagnostics in either shape the server uses: `{file,line,col,…}` or `{place:{file,line,col},…}`. */
export function problemsOf(value: unknown): Problem[] {
  if (!Array.isArray(value)) return [];
  const out: Problem[] = [];
  for (const item of value) {
    if (!isRecord(item)) continue;
    const place = isRecord(item.place) ? item.place : item;
    const file = typeof place.file === 'string' ? place.file : '?';
    const line = typeof place.line === 'number' ? place.line : 0;
    const col = typeof place.col === 'number' ? place.col : 0;
    const message = typeof item.message === 'string' ? item.message : JSON.stringify(item);
    out.push({ file, line, col, message, code: typeof item.code === 'string' ? item.code : undefined });
  }
  return out;
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.message}`;
}

/** Builds the failure from a status and a parsed (or unparsable) body. */
export function failureOf(status: number, body: unknown): ApiFailure {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const code = typeof error?.code === 'string' ? error.code : `http_${status}`;
  const message = typeof error?.message === 'string' ? error.message : `the server answered ${status}`;
  const problems = problemsOf(
    error?.errors ?? error?.diagnostics ?? (isRecord(body) ? body.errors : undefined),
  );
  return new ApiFailure(status, code, message, problems, error ?? {});
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
  const issues = failure.details.issues;
  if (!Array.isArray(issues)) return [];
  const out: string[] = [];
  for (const issue of issues) {
    if (!isRecord(issue) || typeof issue.message !== 'string') continue;
    out.push(typeof issue.path === 'string' ? `${issue.path}: ${issue.message}` : issue.message);
  }
  return out;
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
