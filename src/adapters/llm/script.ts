// The scripted-provider file format (`--llm-script file.json`): per role, a list of responses played
// back in order. Validated up front so a typo fails with the file and the entry's path, not mid-turn.

import { z } from 'zod';
import { ModelError, type ModelErrorKind } from './errors.ts';
import { MAX_SCRIPT_ENTRIES_PER_ROLE, MAX_SCRIPT_FILE_BYTES } from './limits.ts';
import { readSmallFile } from './small-file.ts';
import type { ModelRole } from './types.ts';

/** A scripted delay longer than this is refused (scripts are for tests, not for waiting). */
export const MAX_SCRIPT_DELAY_MS = 60_000;

const SCRIPT_ERROR_KINDS = [
  'timeout',
  'http',
  'network',
  'aborted',
  'bad-response',
  'bad-request',
  'config',
] as const satisfies readonly ModelErrorKind[];

const scriptToolCallSchema = z
  .strictObject({
    id: z.string().min(1).optional(),
    name: z.string().min(1),
    /** Arguments as JSON; sent to the engine as `args`, with `rawArgs` = their JSON text. */
    args: z.unknown().optional(),
    /** Arguments as the model's raw text (may be malformed JSON); excludes `args`. */
    rawArgs: z.string().optional(),
  })
  .refine((call) => !(call.args !== undefined && call.rawArgs !== undefined), {
    message: 'give either args or rawArgs, not both',
  });

const scriptUsageSchema = z.strictObject({
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cachedInputTokens: z.number().int().min(0).optional(),
});

const scriptResponseSchema = z
  .strictObject({
    text: z.string().optional(),
    /** The stream's text deltas; they must join to `text` when both are given. */
    chunks: z.array(z.string()).optional(),
    toolCalls: z.array(scriptToolCallSchema).optional(),
    usage: scriptUsageSchema.optional(),
    finishReason: z.string().min(1).optional(),
    /** Wait before answering (cancellation tests); honours the request's abort signal. */
    delayMs: z.number().int().min(0).max(MAX_SCRIPT_DELAY_MS).optional(),
  })
  .refine((r) => r.text === undefined || r.chunks === undefined || r.chunks.join('') === r.text, {
    message: 'chunks must join to exactly text',
  });

const scriptErrorSchema = z
  .strictObject({
    error: z.strictObject({
      kind: z.enum(SCRIPT_ERROR_KINDS),
      status: z.number().int().min(100).max(599).optional(),
      message: z.string().optional(),
    }),
    delayMs: z.number().int().min(0).max(MAX_SCRIPT_DELAY_MS).optional(),
  })
  .refine((e) => e.error.kind !== 'http' || e.error.status !== undefined, {
    message: 'an http error needs a status',
    path: ['error', 'status'],
  });

export type ScriptToolCall = z.infer<typeof scriptToolCallSchema>;
export type ScriptResponse = z.infer<typeof scriptResponseSchema>;
export type ScriptError = z.infer<typeof scriptErrorSchema>;
export type ScriptEntry = ScriptResponse | ScriptError;

export interface ModelScript {
  readonly description?: string;
  readonly director: readonly ScriptEntry[];
  readonly narrator: readonly ScriptEntry[];
  readonly npc: readonly ScriptEntry[];
}

/** What a test may write: roles are optional (a missing role has no responses). */
export interface ModelScriptInput {
  readonly description?: string;
  readonly director?: readonly unknown[];
  readonly narrator?: readonly unknown[];
  readonly npc?: readonly unknown[];
}

const roleList = z.array(z.unknown()).max(MAX_SCRIPT_ENTRIES_PER_ROLE, {
  message: `more than ${MAX_SCRIPT_ENTRIES_PER_ROLE} responses (MAX_SCRIPT_ENTRIES_PER_ROLE)`,
});
const scriptFileSchema = z.strictObject({
  description: z.string().optional(),
  director: roleList.optional(),
  narrator: roleList.optional(),
  npc: roleList.optional(),
});

function issuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path)
    out += typeof part === 'number' ? `[${part}]` : `${out === '' ? '' : '.'}${String(part)}`;
  return out;
}

function scriptError(source: string, path: readonly PropertyKey[], message: string): ModelError {
  const where = path.length === 0 ? '' : ` ${issuePath(path)}:`;
  return new ModelError('config', `${source}:${where} ${message}`);
}

function firstIssue(error: z.ZodError, prefix: readonly PropertyKey[], source: string): ModelError {
  const issue = error.issues[0]!;
  const keys = issue.code === 'unrecognized_keys' ? [issue.keys[0]!] : [];
  const message = issue.code === 'unrecognized_keys' ? 'unknown key' : issue.message;
  return scriptError(source, [...prefix, ...issue.path, ...keys], message);
}

/** Validates a script object; errors name `source` and the entry (`director[2].toolCalls[0].name`). */
export function validateModelScript(input: unknown, source = 'script'): ModelScript {
  const top = scriptFileSchema.safeParse(input);
  if (!top.success) throw firstIssue(top.error, [], source);
  const entriesOf = (role: ModelRole): ScriptEntry[] =>
    (top.data[role] ?? []).map((entry, index) => {
      const isError = entry !== null && typeof entry === 'object' && Object.hasOwn(entry, 'error');
      const parsed = isError ? scriptErrorSchema.safeParse(entry) : scriptResponseSchema.safeParse(entry);
      if (!parsed.success) throw firstIssue(parsed.error, [role, index], source);
      return parsed.data;
    });
  const script: { -readonly [K in keyof ModelScript]: ModelScript[K] } = {
    director: entriesOf('director'),
    narrator: entriesOf('narrator'),
    npc: entriesOf('npc'),
  };
  if (top.data.description !== undefined) script.description = top.data.description;
  return script;
}

/** Parses a script file's text (JSON). */
export function parseModelScript(text: string, fileName: string): ModelScript {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ModelError('config', `${fileName}: not valid JSON: ${(error as Error).message}`);
  }
  return validateModelScript(data, fileName);
}

/** Reads, size-checks and validates a script file. */
export function loadModelScript(path: string): ModelScript {
  const text = readSmallFile(path, 'script file', MAX_SCRIPT_FILE_BYTES, 'MAX_SCRIPT_FILE_BYTES');
  return parseModelScript(text, path);
}

export function isScriptError(entry: ScriptEntry): entry is ScriptError {
  return Object.hasOwn(entry, 'error');
}
