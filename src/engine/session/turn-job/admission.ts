// Admission: the rules a turn request must meet before anything is read or claimed, checked in one place
// for every way into a turn (the session routes, the stateless turn, the OpenAI-compatible endpoint, the
// terminal game, `mnesos turn`). One schema says what a request may hold; the operator's input limit and
// the Idempotency-Key's length are part of it, so every entry answers a too-long input or a bad key with
// the same SessionError (and every HTTP route with the same status and code). See docs/turn.md, Admission.

import { createHash } from 'node:crypto';
import { z } from 'zod';
import { MAX_IDEMPOTENCY_KEY_LENGTH, MAX_NAME_LENGTH } from '../../../adapters/store/limits.ts';
import { type InteractionInput, MAX_INPUT_CHARS } from '../../turn/index.ts';
import { SessionError } from '../errors.ts';
import type { AdmissionRules, AdmittedTurn, RequestAdmission, TurnRequest } from './types.ts';

export const DEFAULT_ADMISSION: AdmissionRules = Object.freeze({
  maxInputChars: MAX_INPUT_CHARS,
  turnTimeoutMs: undefined,
});

/** The rules with their defaults; a limit out of range is a RangeError naming it (refused at start-up). */
export function resolveAdmission(given: Partial<AdmissionRules> = {}): AdmissionRules {
  const rules = { ...DEFAULT_ADMISSION, ...given };
  if (!Number.isSafeInteger(rules.maxInputChars) || rules.maxInputChars < 1)
    throw new RangeError(`maxInputChars must be a positive integer, got ${String(rules.maxInputChars)}`);
  // The engine refuses longer input anyway; a larger limit would only move the error later.
  if (rules.maxInputChars > MAX_INPUT_CHARS)
    throw new RangeError(`maxInputChars must be at most ${MAX_INPUT_CHARS} (MAX_INPUT_CHARS)`);
  if (
    rules.turnTimeoutMs !== undefined &&
    (!Number.isSafeInteger(rules.turnTimeoutMs) || rules.turnTimeoutMs < 1)
  )
    throw new RangeError(`turnTimeoutMs must be a positive integer, got ${String(rules.turnTimeoutMs)}`);
  return rules;
}

/** A mini-game's result as a client sends it (the engine checks it against the pending mini-game). */
export const interactionSchema = z.object({
  minigame_id: z.string().min(1).max(200),
  status: z.enum(['completed', 'failed', 'aborted']),
  metrics: z
    .record(
      z.string(),
      z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()]))]),
    )
    .optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

/** Characters one table turn may name: far above any table's member limit (MAX_TABLE_MEMBERS). */
const MAX_TABLE_SEATS = 64;

export const IDEMPOTENCY_KEY_MESSAGE = `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;
const EXACTLY_ONE = 'give exactly one of input (the player text) and interaction (a mini-game result)';
/** The issue parameter that marks the input-limit issue, answered as `input-too-long` (413), not `malformed`. */
const INPUT_TOO_LONG = 'input-too-long';

/** A character at a shared table, as the table layer names it (table/characters.ts). */
const tableActor = z.strictObject({
  character: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,31}$/),
  name: z.string().min(1).max(MAX_NAME_LENGTH),
});
/** A shared table's turn (table/turns.ts): bounded like everything else a request holds. */
const tableTurn = z.strictObject({
  turn: z.strictObject({
    actors: z.array(tableActor).min(1).max(MAX_TABLE_SEATS),
    present: z.array(tableActor).max(MAX_TABLE_SEATS),
    whisper: z.boolean().optional(),
  }),
  persona: z
    .strictObject({
      principalId: z.string().min(1).max(MAX_NAME_LENGTH),
      personaId: z.string().min(1).max(MAX_NAME_LENGTH).nullable(),
    })
    .nullable(),
});

function requestSchema(rules: AdmissionRules) {
  return z
    .strictObject({
      parentId: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
      turn: z
        .strictObject({ input: z.string().optional(), interaction: interactionSchema.optional() })
        .refine((turn) => (turn.input === undefined) !== (turn.interaction === undefined), {
          error: EXACTLY_ONE,
        }),
      idempotencyKey: z
        .string()
        .min(1, { error: IDEMPOTENCY_KEY_MESSAGE })
        .max(MAX_IDEMPOTENCY_KEY_LENGTH, { error: IDEMPOTENCY_KEY_MESSAGE })
        .optional(),
      idempotencyScope: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
      playerContext: z.string().optional(),
      trigger: z.enum(['normal', 'continue', 'swipe', 'regenerate']).optional(),
      strict: z.boolean().optional(),
      // Planned in this process by SessionService.planRebase (never read from a request body): its shape only.
      rebased: z
        .looseObject({
          baseId: z.string().min(1),
          expectedHeadId: z.string().min(1),
          turns: z.array(z.unknown()),
        })
        .optional(),
      table: tableTurn.optional(),
    })
    .superRefine((request, ctx) => {
      if (request.turn.input === undefined) return;
      const length = request.turn.input.length;
      if (length > rules.maxInputChars)
        ctx.addIssue({
          code: 'custom',
          path: ['turn', 'input'],
          message: `the input is ${length} characters; the limit is ${rules.maxInputChars}`,
          params: { rule: INPUT_TOO_LONG, limit: rules.maxInputChars },
        });
    });
}

/**
 * The admission of one service: checks a request against the rules and returns it as the turn will use
 * it. Throws SessionError `input-too-long` (with `limit`) or `malformed` (with `issues`).
 */
export function admission(rules: AdmissionRules): RequestAdmission {
  const schema = requestSchema(rules);
  return (request) => {
    const parsed = schema.safeParse(request);
    if (parsed.success) return request as AdmittedTurn;
    const issues = parsed.error.issues;
    const tooLong = issues.find((issue) => issue.code === 'custom' && issue.params?.rule === INPUT_TOO_LONG);
    if (tooLong !== undefined)
      throw new SessionError('input-too-long', tooLong.message, { limit: rules.maxInputChars });
    const first = issues[0];
    const where = first === undefined ? '' : first.path.map(String).join('.');
    const message =
      first?.path[0] === 'idempotencyKey' || first?.path.length === 1
        ? (first?.message ?? 'the turn request is not valid')
        : `the turn request is not valid: ${where}: ${first?.message ?? 'refused'}`;
    throw new SessionError('malformed', message, {
      issues: issues.slice(0, 20).map((issue) => ({
        path: issue.path.map(String).join('.') || '(root)',
        message: issue.message,
      })),
    });
  };
}

/** The turn of a flat request body: exactly one of `input` and `interaction` (checked again on admission). */
export function turnOf(body: {
  readonly input?: string | undefined;
  readonly interaction?: unknown;
}): TurnRequest['turn'] {
  if (body.input !== undefined && body.interaction === undefined) return { input: body.input };
  if (body.input === undefined && body.interaction !== undefined)
    return { interaction: body.interaction as InteractionInput };
  throw new SessionError('malformed', EXACTLY_ONE, { issues: [{ path: 'input', message: EXACTLY_ONE }] });
}

/**
 * The key a turn is claimed and stored under: the client's own, or, in a scope (the OpenAI endpoint's,
 * whose keys are the front end's), a fixed-length digest of the session and the key, so keys of two
 * scopes never meet on one session.
 */
export function storedIdempotencyKey(request: TurnRequest, sessionId: string): string | undefined {
  const key = request.idempotencyKey;
  if (key === undefined || request.idempotencyScope === undefined) return key;
  const digest = createHash('sha256').update(`${sessionId}\0${key}`).digest('hex').slice(0, 40);
  return `${request.idempotencyScope}:${digest}`;
}
