// The events of the API's two event streams, as zod/mini schemas keyed by event name: a turn
// (`POST …/turns`, `…/regenerate` with `Accept: text/event-stream`) and the AI generator
// (`POST /v1/builder/generate`). The server sends them (server/views.ts, routes/turns.ts, routes/builder.ts);
// the browser parses each message's data with the schema of its event (web/lib/sse.ts), so a malformed
// event is a failure naming its fields, never a value coerced into shape.

import * as z from 'zod/mini';
import { noTurnResponse, turnViewSchema } from './responses.ts';
import { errorDetailSchema } from './system.ts';

const id = z.string();
const count = z.int();

/**
 * The events of a turn, in order: `start`, then phases, tool calls and narration, then `committed`,
 * `answered` (no turn was played: docs/api.md, "No turn played") or `error`.
 */
export const turnStreamEvents = {
  start: z.looseObject({
    turnId: id,
    parentId: z.nullable(id),
    modelMode: z.optional(z.string().check(z.describe('`online` or `offline`: who plays the turn'))),
  }),
  /** `director`, `narrator`, `cycle_tick`, `interaction`, `time`, `ledger` (a newer server may add some). */
  phase: z.looseObject({ phase: z.string() }),
  tool_call: z.looseObject({
    round: count,
    name: z.string(),
    id: z.optional(z.string()),
    args: z.optional(z.unknown()),
  }),
  tool_result: z.looseObject({
    round: count,
    name: z.string(),
    ok: z.boolean(),
    id: z.optional(z.string()),
    content: z.optional(z.string()),
  }),
  narration: z.looseObject({ text: z.string() }),
  committed: z.looseObject({ turn: turnViewSchema, replayed: z.boolean() }),
  answered: noTurnResponse,
  /** The turn failed: the HTTP status it would have answered with, and the error. */
  error: z.looseObject({ status: count, error: errorDetailSchema }),
} as const;

/** A diagnostic as the generator reports it: its place when it has one. */
const generatorFinding = z.looseObject({
  severity: z.string(),
  code: z.string(),
  message: z.string(),
  where: z.nullable(z.string()),
  file: z.optional(z.string()),
  line: z.optional(count),
  col: z.optional(count),
});

/**
 * The generator's events: rounds asked, answered and checked, then `saved` and `done`, or `error`. Every one
 * is small: a list of findings holds the first MAX_LISTED_FINDINGS (src/tools/authoring/builder/limits.ts)
 * beside its whole count, and the result's files and transcript are the draft's
 * (`GET /v1/builder/drafts/{draftId}`), not the stream's.
 */
export const generateStreamEvents = {
  round: z.looseObject({ round: count, kind: z.enum(['draft', 'repair']), errors: count }),
  answered: z.looseObject({ round: count, chars: count, files: z.array(z.string()) }),
  checked: z.looseObject({
    round: count,
    errors: z.array(generatorFinding),
    errorCount: count,
    warnings: count,
  }),
  /** The draft the result was saved as (sent before `done`). */
  saved: z.looseObject({ draftId: id, ok: z.boolean(), rounds: count }),
  done: z.looseObject({
    ok: z.boolean(),
    errors: z.array(generatorFinding),
    errorCount: count,
    warnings: z.array(generatorFinding),
    warningCount: count,
    rounds: count,
    draftId: id,
  }),
  error: z.looseObject({ code: z.string(), message: z.string() }),
} as const;

/** A table of events: each event's name and the schema of its data. */
export type StreamEventSchemas = Readonly<Record<string, z.core.$ZodType>>;

/** One event of a table, parsed: its name beside its data (a discriminated union over the table). */
export type StreamEventOf<T extends StreamEventSchemas> = {
  [K in keyof T & string]: { readonly event: K; readonly data: z.infer<T[K]> };
}[keyof T & string];

export type TurnStreamEvent = StreamEventOf<typeof turnStreamEvents>;
export type GenerateStreamEvent = StreamEventOf<typeof generateStreamEvents>;
export type GeneratorFinding = z.infer<typeof generatorFinding>;
