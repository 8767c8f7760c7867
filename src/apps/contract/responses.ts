// The answers of the API that the web client reads, as zod schemas: the server documents them
// (/openapi.json), test/apps/web/api-responses.test.ts holds the server's real answers to them, and the browser
// parses every answer with them (each feature's client in web/), so a malformed answer is a clear error
// instead of a view built on a cast. Written with `zod/mini` (the browser bundles it: a few kB, where classic zod is tens)
// and free of server code: the server and the web client import it through contract/index.ts.

import * as z from 'zod/mini';
import { NO_TURN_REASONS } from '../../engine/turn/browser.ts';
import { modelSettingsSchema } from '../../core/model-settings/index.ts';

export {
  type ModelSettings,
  SETTINGS_PROVIDERS,
  type SettingsProvider,
} from '../../core/model-settings/index.ts';

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
    z.object({
      dice: z.nullable(z.string()),
      faces: z.nullable(z.array(z.number())),
      total: z.number(),
      purpose: z.nullable(z.string()),
      value: z.nullable(z.number()),
      modified: z.boolean(),
      entry: z.nullable(z.string()),
      check: z.nullable(
        z.object({
          op: z.enum(['>=', '>', '<=', '<', '==', '!=']),
          against: z.nullable(z.number()),
          passed: z.boolean(),
        }),
      ),
    }),
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
  voice: z.optional(z.string()),
});

/** A cartridge version as listed (`versionView`; the library adds tags, notes and archiving). */
export const cartridgeVersionViewSchema = z.looseObject({
  id,
  name: z.string(),
  contentHash: z.string(),
  createdAt: time,
});

/** A version in a library (`libraryVersionView`): its tag, notes and whether it is archived. */
export const libraryVersionViewSchema = z.looseObject({
  ...cartridgeVersionViewSchema.shape,
  addedAt: time,
  tag: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  archived: z.boolean(),
  archivedAt: z.nullable(time),
});

/** A library cartridge as its viewer sees it (`libraryCartridgeView`). */
export const libraryCartridgeViewSchema = z.looseObject({
  id,
  name: z.string(),
  owner: z.enum(['self', 'operator', 'other']).check(z.describe('Whose it is, as the caller sees it')),
  canEdit: z.boolean(),
  title: z.string(),
  description: z.string(),
  descriptionCut: z.boolean().check(z.describe('True when a listing cut the description short')),
  genre: z.string(),
  tags: z.array(z.string()),
  visibility: z.string(),
  archived: z.boolean(),
  cover: z.nullable(z.object({ mediaType: z.string(), bytes: count, url: z.string(), updatedAt: time })),
  createdAt: time,
  updatedAt: time,
});

/** A cartridge in the list: its newest version and how many there are. */
export const cartridgeViewSchema = z.looseObject({
  ...libraryCartridgeViewSchema.shape,
  latest: libraryVersionViewSchema,
  versionCount: count,
});

/** A diagnostic of a cartridge check (`diagnosticView`): where it is, when it has a place. */
export const diagnosticSchema = z.looseObject({
  file: z.nullable(z.string()),
  line: z.nullable(count),
  col: z.nullable(count),
  code: z.string(),
  message: z.string(),
  severity: z.string(),
  where: z.nullable(z.string()).check(z.describe('`file:line:col`')),
});

export const schemaFieldSchema = z.object({
  path: z.array(z.string()),
  type: z.enum(['int', 'float', 'bool', 'string', 'list', 'dict', 'collection', 'any']),
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

/** The events an author may run on a session (`GET …/events`): each with its inputs and their values. */
export const authorEventsResponse = z.object({
  events: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      internal: z.boolean(),
      inputs: z.array(
        z.object({
          name: z.string(),
          type: z.nullable(z.string()),
          enum: z.nullable(z.array(z.unknown())),
          default: z.unknown(),
          required: z.boolean(),
        }),
      ),
    }),
  ),
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

export const cartridgesResponse = z.looseObject({
  cartridges: z.array(cartridgeViewSchema),
  storage: z.object({
    usedBytes: count,
    quotaBytes: z.number(),
    cartridgeBytes: count.check(z.describe('Of `usedBytes`: the cartridges’ files')),
    coverBytes: count.check(z.describe('Of `usedBytes`: the covers')),
    draftBytes: count.check(z.describe('Of `usedBytes`: the builder’s drafts')),
    pictureBytes: count.check(z.describe('Of `usedBytes`: the turns’ pictures')),
  }),
});
/** A turn's picture, made and stored (`POST /v1/sessions/:id/turns/:turnId/picture`; docs/voices.md). */
export const turnPictureResponse = z.looseObject({
  turnId: id,
  mediaType: z.string(),
  bytes: count,
  prompt: z.string(),
  url: z.string(),
});
export const versionsResponse = z.looseObject({
  name: z.string(),
  cartridgeId: id,
  versions: z.array(libraryVersionViewSchema),
});
export const uploadResponse = z.looseObject({
  version: cartridgeVersionViewSchema,
  created: z.boolean().check(z.describe('False when the same files were stored already')),
  warnings: z.array(diagnosticSchema),
});
/** `POST /v1/cartridges/import`: the stored version and what of the card was not carried over. */
export const importResponse = z.looseObject({
  ...uploadResponse.shape,
  kind: z.string().check(z.describe('What the file was: a character card or a World Info file')),
  spec: z.nullable(z.string()),
  loss: z.unknown().check(z.describe('What the card held that the cartridge does not carry')),
});
/** `GET /v1/cartridges/:ref`: the cartridge and its versions. */
export const libraryCartridgeResponse = z.looseObject({
  cartridge: libraryCartridgeViewSchema,
  versions: z.optional(z.array(libraryVersionViewSchema)),
});
/** `GET /v1/cartridges/:ref`: the cartridge and its versions, newest first. */
export const cartridgeDetailResponse = z.looseObject({
  cartridge: libraryCartridgeViewSchema,
  versions: z.array(libraryVersionViewSchema),
});
export const libraryVersionResponse = z.looseObject({ version: libraryVersionViewSchema });
/** `GET /v1/cartridge-versions/:id`: every file for its owner, what the Narrator sees for anyone else. */
export const cartridgeVersionFilesResponse = z.looseObject({
  version: z.looseObject({
    ...cartridgeVersionViewSchema.shape,
    view: z.enum(['full', 'public']),
    files: z.record(z.string(), z.unknown()),
    initialState: z.optional(z.unknown()),
  }),
});
export const stateResponse = z.looseObject({ state: z.record(z.string(), z.unknown()) });
const stamp = z.looseObject({ turn: count });
/** The ledger's world as JSON (core/ledger/world.ts `World`): every table keyed by its records' keys. */
export const worldSchema = z.looseObject({
  entities: z.record(
    z.string(),
    z.looseObject({
      key: z.string(),
      name: z.string(),
      entityType: z.optional(z.string()),
      status: z.optional(z.string()),
      conditions: z.array(z.string()),
      location: z.optional(z.string()),
      holder: z.optional(z.string()),
    }),
  ),
  /** Hash buckets of facts: `{bucket: {factId: fact}}`. */
  facts: z.record(
    z.string(),
    z.record(
      z.string(),
      z.looseObject({
        id: z.string(),
        predicate: z.string(),
        subject: z.optional(z.string()),
        object: z.optional(z.string()),
        value: z.optional(z.nullable(z.union([z.string(), z.number(), z.boolean()]))),
        added: stamp,
        invalidated: z.optional(stamp),
      }),
    ),
  ),
  threads: z.record(
    z.string(),
    z.looseObject({
      key: z.string(),
      title: z.string(),
      description: z.optional(z.string()),
      resolved: z.optional(stamp),
    }),
  ),
  scene: z.nullable(
    z.looseObject({
      summary: z.optional(z.string()),
      location: z.optional(z.string()),
      present: z.array(z.string()),
    }),
  ),
});
/** `GET …/world`: a page of the world at a turn (`page.next` continues it) and its summary. */
export const worldResponse = z.looseObject({
  turnId: id,
  world: worldSchema,
  page: z.looseObject({ records: count, next: z.nullable(z.string()) }),
  summary: z.unknown(),
});
export const ledgerResponse = z.looseObject({ entries: z.array(ledgerRowSchema) });
/** `GET`/`PUT /v1/settings`: the stored settings, the server's own models, and why they may not apply. */
export const settingsResponse = z.looseObject({
  settings: modelSettingsSchema.check(
    z.describe('What the caller stored (`{}` when nothing: the server’s models apply)'),
  ),
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
/** One page of the caller's sessions; `nextCursor` asks for the next page (null: this was the last). */
export const sessionsResponse = z.looseObject({
  sessions: z.array(sessionViewSchema),
  nextCursor: z.nullable(z.string()),
});
export const createdSessionResponse = z.looseObject({ session: sessionViewSchema, turn: turnViewSchema });
export const treeResponse = z.looseObject({ turns: z.array(nodeViewSchema) });
export const turnResponse = z.looseObject({ turn: turnViewSchema });
export const saveResponse = z.looseObject({ save: saveViewSchema });
export const savesResponse = z.looseObject({ saves: z.array(saveViewSchema) });
export const personaResponse = z.looseObject({ persona: personaViewSchema });
export const personasResponse = z.looseObject({ personas: z.array(personaViewSchema) });

/** A played turn (`POST …/turns`, `…/regenerate`): `replayed` when an Idempotency-Key answered it before. */
export const turnResultResponse = z.looseObject({
  turn: turnViewSchema,
  replayed: z.boolean(),
  modelMode: z.string().check(z.describe('`online` or `offline`: who played the turn')),
});

/**
 * A turn request answered without playing a turn (offline: a free action, a question back, the rules'
 * refusal here, /help): a success that changed nothing (docs/api.md, "No turn played").
 */
export const noTurnResponse = z.looseObject({
  played: z.literal(false),
  reason: z
    .enum(NO_TURN_REASONS)
    .check(
      z.describe(
        'Why no turn was played: `free` (look, examine, inventory, exits), `question` (which one, or a missing value), `refused` (the rules say no here), `unmatched` (what can be done here), `help`, `unknown` (no such command), `invalid` (a command the rules reject)',
      ),
    ),
  text: z.string().check(z.describe('The answer for the player')),
  modelMode: z.string(),
});

/** The answer to a turn request: the played turn, or an answer without one. */
export const turnOrAnswerResponse = z.union([turnResultResponse, noTurnResponse]);

/** The turns played after one (its swipes and branches), each with its prose. */
export const childrenResponse = z.looseObject({
  turns: z.array(z.looseObject({ ...nodeViewSchema.shape, narration: z.string() })),
});

/** `POST /v1/turn`: one turn played without a session. */
const playedStatelessResponse = z.looseObject({
  view: z.enum(['public', 'full']),
  state: z
    .record(z.string(), z.unknown())
    .check(z.describe('The state after the turn (public fields only unless `view=full`)')),
  record: z.optional(z.unknown()),
  narration: z.string(),
  modelMode: z.string(),
});

/** `POST /v1/turn`: the played turn, or an answer without one (`played: false`). */
export const statelessTurnResponse = z.union([playedStatelessResponse, noTurnResponse]);

/** `GET /v1/me`. */
export const meResponse = z.looseObject({
  principal: z.looseObject({ id, name: z.string() }),
  authorMode: z.boolean(),
  modelMode: z.string(),
});

/** A document that is itself a JSON Schema (an editor schema, a mini-game's config). */
export const jsonSchemaDocument = z
  .record(z.string(), z.unknown())
  .check(z.describe('A JSON Schema (draft-07)'));

/** A setting a cartridge may give a mini-game (core/minigames/manifest.ts `ConfigField`). */
const configFieldSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.enum(['int', 'number']),
    min: z.number(),
    max: z.number(),
    default: z.optional(z.number()),
    required: z.optional(z.boolean()),
    description: z.string(),
  }),
  z.object({
    kind: z.literal('text'),
    maxChars: count,
    default: z.optional(z.string()),
    required: z.optional(z.boolean()),
    description: z.string(),
  }),
  z.object({
    kind: z.literal('text_list'),
    minItems: count,
    maxItems: count,
    maxChars: count,
    required: z.optional(z.boolean()),
    description: z.string(),
  }),
]);

/** A mini-game's manifest (core/minigames `MinigameManifest`) with its config as JSON Schema. */
export const minigameViewSchema = z.looseObject({
  minigame_id: z.string(),
  title: z.string(),
  description: z.string(),
  difficulty: z.record(z.string(), configFieldSchema),
  assets: z.record(z.string(), configFieldSchema),
  hooks: z.record(z.string(), z.string()),
  metrics: z.readonly(
    z.array(
      z.object({
        name: z.string(),
        kind: z.enum(['int', 'number', 'bool', 'text', 'text_list']),
        description: z.string(),
      }),
    ),
  ),
  accessibility: z.string(),
  config_schema: jsonSchemaDocument,
});
export const minigamesResponse = z.looseObject({ minigames: z.array(minigameViewSchema) });

/** `POST /v1/builder/check`: a draft checked as an upload would be, every problem with its place. */
export const builderCheckResponse = z.looseObject({
  ok: z.boolean(),
  errors: z.array(diagnosticSchema),
  warnings: z.array(diagnosticSchema),
});

/** `POST /v1/builder/complete`: where the completed word starts and what may complete it. */
export const completionResponse = z.looseObject({
  from: count,
  items: z.array(
    z.looseObject({
      label: z.string(),
      kind: z.string(),
      detail: z.optional(z.string()),
      info: z.optional(z.string()),
      apply: z.optional(z.string()),
    }),
  ),
});

export const hoverResponse = z.looseObject({ hover: z.nullable(z.object({ markdown: z.string() })) });

const tryRoll = z.looseObject({
  expr: z.string(),
  dice: z.string(),
  faces: z.array(z.number()),
  total: z.number(),
});

/** `POST /v1/builder/try`: an event run on a draft's rules (`ok: false` with the event's own error). */
const located = z.looseObject({
  place: z.looseObject({ file: z.string(), line: z.number(), col: z.number() }),
  what: z.string(),
});
const coverageCount = z.looseObject({ total: z.number(), missed: z.array(located) });

/** One step of an explored playthrough, with its seed (tools/authoring/explore/types.ts `ExploreStep`). */
export const exploreStepSchema = z.discriminatedUnion('kind', [
  z.looseObject({
    kind: z.literal('event'),
    event: z.string(),
    inputs: z.record(z.string(), z.unknown()),
    seed: z.number(),
  }),
  z.looseObject({
    kind: z.literal('minigame'),
    result: z.looseObject({ minigame_id: z.string(), status: z.string() }),
    seed: z.number(),
  }),
  z.looseObject({ kind: z.literal('wait'), duration: z.string(), seed: z.number() }),
]);

/** The builder's Explore pane: `mnesos explore`'s report (tools/authoring/explore/types.ts). */
export const exploreResponse = z.looseObject({
  report: z.looseObject({
    cartridge: z.string(),
    seed: z.number(),
    runs: z.number(),
    depth: z.number(),
    stepsPlayed: z.number(),
    eventsRun: z.number(),
    stoppedEarly: z.boolean(),
    violations: z.array(
      z.looseObject({
        kind: z.enum(['error', 'budget', 'note', 'invariant', 'bounds']),
        key: z.string(),
        message: z.string(),
        place: z.optional(z.looseObject({ file: z.string(), line: z.number(), col: z.number() })),
        steps: z.array(exploreStepSchema),
        originalLength: z.number(),
      }),
    ),
    violationsDropped: z.number(),
    coverage: z.looseObject({
      events: coverageCount,
      steps: coverageCount,
      branches: coverageCount,
      notes: coverageCount,
      lore: coverageCount,
      worldInfo: z.looseObject({
        total: z.number(),
        missed: z.array(z.looseObject({ uid: z.number(), what: z.string() })),
      }),
    }),
  }),
});

export const tryResponse = z.discriminatedUnion('ok', [
  z.looseObject({
    ok: z.literal(true),
    notes: z.array(z.string()),
    rolls: z.array(tryRoll),
    changes: z.array(
      z.looseObject({
        path: z.string(),
        before: z.unknown(),
        after: z.unknown(),
        op: z.enum(['set', 'delete']),
      }),
    ),
    state: z.unknown(),
  }),
  z.looseObject({
    ok: z.literal(false),
    notes: z.array(z.string()),
    rolls: z.array(tryRoll),
    error: z.object({ code: z.string(), message: z.string(), where: z.nullable(z.string()) }),
  }),
]);

export const templatesResponse = z.looseObject({ templates: z.array(z.string()) });

/** A draft without its files (`draftSummaryView`). */
export const draftSummarySchema = z.looseObject({ id, name: z.string(), createdAt: time, updatedAt: time });
/** A draft with its files by name and the generator's transcript (`draftView`). */
export const draftViewSchema = z.looseObject({
  ...draftSummarySchema.shape,
  files: z.record(z.string(), z.optional(z.string())),
  transcript: z.nullable(z.string()).check(z.describe("The generator's transcript, as Markdown")),
});
export const draftsResponse = z.looseObject({ drafts: z.array(draftSummarySchema) });
export const draftResponse = z.looseObject({ draft: draftViewSchema });
export const savedDraftResponse = z.looseObject({
  draft: draftSummarySchema,
  check: z.optional(builderCheckResponse),
});

export type SessionView = z.infer<typeof sessionViewSchema>;
export type NodeView = z.infer<typeof nodeViewSchema>;
export type SaveView = z.infer<typeof saveViewSchema>;
export type PublicTurnView = z.infer<typeof publicTurnSchema>;
export type TurnView = z.infer<typeof turnViewSchema>;
export type HistoryView = z.infer<typeof historyResponse>;
export type PersonaView = z.infer<typeof personaViewSchema>;
export type CartridgeVersionView = z.infer<typeof cartridgeVersionViewSchema>;
export type CartridgeView = z.infer<typeof cartridgeViewSchema>;
export type CartridgesView = z.infer<typeof cartridgesResponse>;
export type LibraryCartridgeView = z.infer<typeof libraryCartridgeViewSchema>;
export type LibraryVersionView = z.infer<typeof libraryVersionViewSchema>;
export type CartridgeDetail = z.infer<typeof cartridgeDetailResponse>;
export type DiagnosticView = z.infer<typeof diagnosticSchema>;
export type SchemaFieldView = z.infer<typeof schemaFieldSchema>;
export type LedgerRow = z.infer<typeof ledgerRowSchema>;
export type WorldView = z.infer<typeof worldSchema>;
export type AuthorEventResult = z.infer<typeof authorEventResponse>;
export type AuthorEventsView = z.infer<typeof authorEventsResponse>;
export type SettingsView = z.infer<typeof settingsResponse>;
export type MinigameView = z.infer<typeof minigameViewSchema>;
export type ConfigFieldView = z.infer<typeof configFieldSchema>;
export type BuilderCheck = z.infer<typeof builderCheckResponse>;
export type DraftSummaryView = z.infer<typeof draftSummarySchema>;
export type DraftView = z.infer<typeof draftViewSchema>;
export type ExploreView = z.infer<typeof exploreResponse>['report'];
export type ExploreStepView = z.infer<typeof exploreStepSchema>;
export type LocatedView = z.infer<typeof located>;
export type TryView = z.infer<typeof tryResponse>;
export type CompletionView = z.infer<typeof completionResponse>;
export type TurnResult = z.infer<typeof turnResultResponse>;

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
