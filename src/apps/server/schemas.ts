// Request and response schemas shared by the routes (and the OpenAPI document).

import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../adapters/store/limits.ts';
import { interactionSchema, MAX_DRAWN_SEED, MAX_EVENT_NAME_CHARS } from '../../engine/session/index.ts';
import {
  MAX_ALTERNATE_GREETINGS,
  MAX_PERSONA_NAME_CHARS,
  MAX_PERSONA_TEXT_CHARS,
  MAX_PERSONA_VOICE_CHARS,
  MAX_PRONOUN_CHARS,
} from '../../core/cartridge/limits.ts';
import { nameProblem } from '../../core/text-policy.ts';
import { HISTORY_MAX_TURNS } from './limits.ts';

export const id = z.string().min(1).max(MAX_NAME_LENGTH);
/** A name is one visible line: no control, bidirectional or tag characters, no NUL or lone surrogate. */
const visibleName = (schema: z.ZodString) =>
  schema.superRefine((value, ctx) => {
    const problem = nameProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
export const name = visibleName(z.string().trim().min(1).max(MAX_NAME_LENGTH));
export const seed = z.number().int().min(0).max(MAX_DRAWN_SEED);

export const sessionParams = z.object({ id });
export const turnParams = z.object({ id, turnId: id });
export const saveParams = z.object({ id, saveId: id });

/** A mini-game result: the session's admission schema (every way into a turn checks it). */
export const interaction = interactionSchema;

/** Exactly one of `input` and `interaction`; the length of `input` is an admission rule of the session (413). */
export const turnBody = z
  .strictObject({
    input: z.string().optional(),
    interaction: interaction.optional(),
    parentId: id.optional(),
    /** Strict mode: an event that breaks an invariant of the cartridge refuses the turn (docs/yare.md). */
    strict: z.boolean().optional(),
    /** At a shared table: the action is private to its player and the game master (docs/multiplayer.md). */
    whisper: z.boolean().optional(),
  })
  .refine((b) => (b.input === undefined) !== (b.interaction === undefined), {
    message: 'give exactly one of input (the player text) and interaction (a mini-game result)',
  });

export const regenerateBody = z.strictObject({ turnId: id.optional() });
export const undoBody = z.strictObject({ expectedHeadId: id.optional() });
export const headBody = z.strictObject({ turnId: id, expectedHeadId: id.optional() });

export const createSessionBody = z.strictObject({
  /** A cartridge version id or content hash, or a cartridge name (its latest version). */
  cartridge: z.string().min(1).max(MAX_NAME_LENGTH),
  personaId: id.nullable().optional(),
  seed: seed.optional(),
  title: name.nullable().optional(),
  /** The opening message: 0 `first-message.md` (default), n the cartridge's alternate greeting n. */
  greeting: z.number().int().min(0).max(MAX_ALTERNATE_GREETINGS).optional(),
});
export const renameSessionBody = z
  .strictObject({ title: name.nullable().optional(), personaId: id.nullable().optional() })
  .refine((b) => b.title !== undefined || b.personaId !== undefined, {
    message: 'give title, personaId or both',
  });

export const personaData = z.strictObject({
  name: visibleName(z.string().min(1).max(MAX_PERSONA_NAME_CHARS)),
  pronoun_sub: z.string().min(1).max(MAX_PRONOUN_CHARS),
  pronoun_obj: z.string().min(1).max(MAX_PRONOUN_CHARS),
  pronoun_poss: z.string().min(1).max(MAX_PRONOUN_CHARS),
  pronoun_poss_obj: z.string().min(1).max(MAX_PRONOUN_CHARS),
  appearance: z.string().max(MAX_PERSONA_TEXT_CHARS).optional(),
  background: z.string().max(MAX_PERSONA_TEXT_CHARS).optional(),
  personality: z.string().max(MAX_PERSONA_TEXT_CHARS).optional(),
  /** The voice the player's lines are read aloud in (docs/voices.md); one line. */
  voice: visibleName(z.string().min(1).max(MAX_PERSONA_VOICE_CHARS)).optional(),
});
/** A JSON merge patch (RFC 7396) of a persona: fields given replace, `null` removes an optional field. */
export const personaPatch = personaData.partial().extend({
  appearance: personaData.shape.appearance.unwrap().nullable().optional(),
  background: personaData.shape.background.unwrap().nullable().optional(),
  personality: personaData.shape.personality.unwrap().nullable().optional(),
  voice: personaData.shape.voice.unwrap().nullable().optional(),
});

export const saveBody = z.strictObject({ name, turnId: id.optional() });
export const renameSaveBody = z.strictObject({ name });

export const stateQuery = z.object({ turnId: id.optional(), view: z.enum(['public', 'full']).optional() });
export const turnQuery = z.object({ view: z.enum(['public', 'full']).optional() });
export const atTurnQuery = z.object({ turnId: id.optional() });

/**
 * The end of a branch: `limit` newest turns of the branch ending at `turnId` (the head by default), 1 to
 * HISTORY_MAX_TURNS. `GET …/history` (its turns) and `GET …/tree` (their nodes and siblings) read it.
 */
export const branchEndQuery = atTurnQuery.extend({
  limit: z.coerce.number().int().min(1).max(HISTORY_MAX_TURNS).optional(),
});

export const authorEventBody = z.strictObject({
  event: z.string().min(1).max(MAX_EVENT_NAME_CHARS),
  inputs: z.record(z.string(), z.unknown()).optional(),
  parentId: id.optional(),
  commit: z.boolean().optional(),
  seed: seed.optional(),
});

export const statelessTurnBody = z
  .strictObject({
    cartridge: z.string().min(1).max(MAX_NAME_LENGTH),
    state: z.record(z.string(), z.unknown()).optional(),
    messages: z
      .array(z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string().max(20_000) }))
      .max(200)
      .optional(),
    input: z.string().optional(),
    interaction: interaction.optional(),
    seed: seed.optional(),
    persona: personaData.optional(),
  })
  .refine((b) => (b.input === undefined) !== (b.interaction === undefined), {
    message: 'give exactly one of input (the player text) and interaction (a mini-game result)',
  });

export const uploadQuery = z.object({ name: name.optional() });

/** Every error answer (the contract's, which the browser parses failures with). */
export { errorResponse as errorSchema } from '../contract/index.ts';

// Typed response shapes of the routes the web client reads field by field (documented in /openapi.json):
// in responses.ts, which the browser bundles too and parses every answer with.
export { historyResponse, publicTurnSchema, schemaFieldSchema, schemaResponse } from '../contract/index.ts';
