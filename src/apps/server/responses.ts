// The answers of the API that the web client reads, as zod schemas: the server documents them
// (/openapi.json), test/web/api-responses.test.ts holds the server's real answers to them, and the browser
// parses every answer with them (web/api.ts), so a malformed answer is a clear error instead of a view
// built on a cast. Written with `zod/mini` (the browser bundles it: a few kB, where classic zod is tens)
// and free of server code: the web client imports it through server/browser.ts.

import * as z from 'zod/mini';

const id = z.string();
const count = z.int();
/** Milliseconds since 1970 (the store's clock). */
const time = z.number();

/** A session as listed and read (`sessionView`). */
export const sessionViewSchema = z.looseObject({
  id,
  cartridgeVersionId: id,
  personaId: z.nullable(id),
  title: z.nullable(z.string()),
  headTurnId: id,
  turnCount: count,
  createdAt: time,
  updatedAt: time,
});

/** A turn's place in the tree (`nodeView`). */
export const nodeViewSchema = z.looseObject({
  id,
  parentId: z.nullable(id),
  depth: count,
  siblingIndex: count,
  seq: count,
  createdAt: time,
});

/** A named save (`saveView`). */
export const saveViewSchema = z.looseObject({
  id,
  sessionId: id,
  turnId: id,
  name: z.string(),
  createdAt: time,
});

const path = z.array(z.string());

/** The dice and what changed in a turn, public fields only (turn/outcome-text.ts `PublicOutcome`). */
export const publicOutcomeSchema = z.object({
  rolls: z.array(
    z.object({ dice: z.nullable(z.string()), faces: z.nullable(z.array(z.number())), total: z.number() }),
  ),
  changes: z.array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('number'), path, before: z.number(), after: z.number() }),
      z.object({ kind: z.literal('list'), path, added: z.array(z.string()), removed: z.array(z.string()) }),
      z.object({
        kind: z.literal('value'),
        path,
        before: z.nullable(z.string()),
        after: z.nullable(z.string()),
      }),
    ]),
  ),
  time: z.nullable(z.object({ before: z.string(), after: z.string(), seconds: z.number() })),
  more: count,
});

/** A turn as players see it (`publicTurnView`). */
export const publicTurnSchema = z.looseObject({
  ...nodeViewSchema.shape,
  sessionId: id,
  input: z.nullable(z.string()).check(z.describe('What the player sent; null for the first message')),
  narration: z.string(),
  mode: z
    .string()
    .check(z.describe('`online` or `offline` for a played turn; `genesis`, `author-event` otherwise')),
  state: z.record(z.string(), z.unknown()).check(z.describe('Public fields only')),
  pendingInteraction: z.nullable(
    z.object({ interaction_type: z.unknown(), minigame_id: z.unknown(), config: z.unknown() }),
  ),
  outcome: z.optional(z.nullable(publicOutcomeSchema)),
});

/** A turn as `GET …/turns/:id` answers it: author mode (`view=full`) adds the record, seed and ledger events. */
export const turnViewSchema = z.looseObject({
  ...publicTurnSchema.shape,
  seed: z.optional(z.number()),
  record: z.optional(z.unknown()),
  ledgerEvents: z.optional(z.unknown()),
});

export const historyResponse = z.looseObject({
  turnId: id.check(z.describe('The last turn of the branch (the head by default)')),
  turns: z.array(publicTurnSchema).check(z.describe('The newest turns of the branch, oldest first')),
  complete: z
    .boolean()
    .check(
      z.describe(
        'True when `turns` starts at the first message; otherwise ask again from the first turn’s parent',
      ),
    ),
});

/** A persona as the server shows it: its fields beside its id (cartridge/persona.ts `Persona`). */
export const personaViewSchema = z.looseObject({
  id,
  name: z.string(),
  pronoun_sub: z.string(),
  pronoun_obj: z.string(),
  pronoun_poss: z.string(),
  pronoun_poss_obj: z.string(),
  appearance: z.optional(z.string()),
  background: z.optional(z.string()),
  personality: z.optional(z.string()),
});

/** A cartridge version as listed (`versionView`; the library adds tags, notes and archiving). */
export const cartridgeVersionViewSchema = z.looseObject({
  id,
  name: z.string(),
  contentHash: z.string(),
  createdAt: time,
});

/** A cartridge in the list: its newest version and how many there are. */
export const cartridgeViewSchema = z.looseObject({
  name: z.string(),
  latest: cartridgeVersionViewSchema,
  versionCount: count,
});

export const schemaFieldSchema = z.object({
  path: z.array(z.string()),
  type: z.enum(['int', 'float', 'bool', 'string', 'list', 'dict', 'any']),
  min: z.optional(z.number()),
  max: z.optional(z.number()),
  description: z.optional(z.string()),
});

export const schemaResponse = z.object({
  fields: z.array(schemaFieldSchema).check(z.describe('Every public field of the cartridge’s state schema')),
});

/** One event of the ledger log, with the turn that made it (`GET …/ledger`). */
export const ledgerRowSchema = z.looseObject({
  turnId: id,
  depth: count,
  position: count,
  event: z.unknown(),
});

/** What an author event did (`POST …/events`); `turn` when it was committed as a turn. */
export const authorEventResponse = z.looseObject({
  record: z.looseObject({
    event: z.string(),
    notes: z.array(z.string()),
    rolls: z.array(z.unknown()),
    stateAfter: z.unknown(),
    seed: z.number(),
  }),
  turn: z.optional(turnViewSchema),
});

export const cartridgesResponse = z.looseObject({ cartridges: z.array(cartridgeViewSchema) });
export const versionsResponse = z.looseObject({ versions: z.array(cartridgeVersionViewSchema) });
export const uploadResponse = z.looseObject({
  version: cartridgeVersionViewSchema,
  warnings: z.optional(z.array(z.unknown())),
});
export const stateResponse = z.looseObject({ state: z.record(z.string(), z.unknown()) });
export const worldResponse = z.looseObject({ turnId: id });
export const ledgerResponse = z.looseObject({ entries: z.array(ledgerRowSchema) });
/** The providers a principal may choose (llm/config.ts ONLINE_PROVIDERS; a test holds them equal). */
export const MODEL_PROVIDERS = ['openai-compatible', 'openai', 'anthropic', 'google'] as const;

/** `GET`/`PUT /v1/settings`: the stored settings, the server's own models, and why they may not apply. */
export const settingsResponse = z.looseObject({
  settings: z
    .object({
      provider: z.optional(z.enum(MODEL_PROVIDERS)),
      baseUrl: z.optional(z.string()),
      models: z.optional(
        z.object({
          director: z.optional(z.string()),
          narrator: z.optional(z.string()),
          npc: z.optional(z.string()),
        }),
      ),
      temperature: z.optional(z.number()),
    })
    .check(z.describe('What the caller stored (`{}` when nothing: the server’s models apply)')),
  updatedAt: z.nullable(z.int()),
  problem: z
    .nullable(z.string())
    .check(
      z.describe(
        'Why the stored settings cannot be used now, or which parts this server ignores; null when all apply',
      ),
    ),
  server: z.object({
    provider: z
      .string()
      .check(z.describe('The server’s provider, `offline`, or `custom` (models given by code)')),
    models: z
      .nullable(z.record(z.string(), z.string()))
      .check(z.describe('The server’s model per role (null when offline or custom)')),
    allowUserBaseUrl: z.boolean().check(z.describe('Whether `baseUrl` and `provider` may be set')),
  }),
});

export const sessionResponse = z.looseObject({ session: sessionViewSchema });
export const sessionsResponse = z.looseObject({ sessions: z.array(sessionViewSchema) });
export const createdSessionResponse = z.looseObject({ session: sessionViewSchema, turn: turnViewSchema });
export const treeResponse = z.looseObject({ turns: z.array(nodeViewSchema) });
export const turnResponse = z.looseObject({ turn: turnViewSchema });
export const saveResponse = z.looseObject({ save: saveViewSchema });
export const savesResponse = z.looseObject({ saves: z.array(saveViewSchema) });
export const personaResponse = z.looseObject({ persona: personaViewSchema });
export const personasResponse = z.looseObject({ personas: z.array(personaViewSchema) });

export type SessionView = z.infer<typeof sessionViewSchema>;
export type NodeView = z.infer<typeof nodeViewSchema>;
export type SaveView = z.infer<typeof saveViewSchema>;
export type PublicTurnView = z.infer<typeof publicTurnSchema>;
export type TurnView = z.infer<typeof turnViewSchema>;
export type HistoryView = z.infer<typeof historyResponse>;
export type PersonaView = z.infer<typeof personaViewSchema>;
export type CartridgeVersionView = z.infer<typeof cartridgeVersionViewSchema>;
export type CartridgeView = z.infer<typeof cartridgeViewSchema>;
export type SchemaFieldView = z.infer<typeof schemaFieldSchema>;
export type LedgerRow = z.infer<typeof ledgerRowSchema>;
export type AuthorEventResult = z.infer<typeof authorEventResponse>;
export type SettingsView = z.infer<typeof settingsResponse>;

/**
 * One line per problem of an answer that does not match: `sessions.0.createdAt: expected number`, or
 * `sessions.0.title: missing (expected string)` for a field left out (parsed with `reportInput`).
 */
export function responseProblems(error: z.core.$ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issue.path.length === 0 ? '(the answer)' : issue.path.map(String).join('.');
    switch (issue.code) {
      case 'invalid_type':
        return 'input' in issue && issue.input === undefined
          ? `${where}: missing (expected ${issue.expected})`
          : `${where}: expected ${issue.expected}`;
      case 'invalid_value':
        return `${where}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
      case 'invalid_union':
        return `${where}: matches none of the expected shapes`;
      default:
        return `${where}: ${issue.code.replaceAll('_', ' ')}`;
    }
  });
}
