// The answers of the shared-table routes (apps/server/routes/table.ts), as zod schemas in `zod/mini` like responses.ts:
// the server documents them and the web client's table view parses every answer with them.

import * as z from 'zod/mini';
import { publicTurnSchema, sessionViewSchema } from './responses.ts';
import type { StreamEventOf } from './streams.ts';

const id = z.string();
const time = z.number();
const role = z.enum(['owner', 'gm', 'player']);
const turnOrder = z.enum(['free', 'rounds']);

/** A member as everyone at the table sees them (never their principal or key). */
export const memberViewSchema = z.looseObject({
  character: z.string(),
  name: z.string(),
  role,
  joinedAt: time,
  /** The member is the one asking. */
  you: z.boolean(),
});

/** An invitation; `code` and `link` only in the answer that made it. */
export const inviteViewSchema = z.looseObject({
  id,
  expiresAt: time,
  maxUses: z.nullable(z.int()),
  uses: z.int(),
  closedAt: z.nullable(time),
  code: z.optional(z.string()),
  link: z.optional(z.string()),
});

export const queuedTurnSchema = z.looseObject({ character: z.string(), position: z.int() });
export const roundActionViewSchema = z.looseObject({
  character: z.string(),
  whisper: z.boolean(),
  /** The action's words: the asker's own, or everyone's for the owner and game masters; null otherwise. */
  input: z.nullable(z.string()),
});

export const tableViewSchema = z.looseObject({
  sessionId: id,
  turnOrder,
  invitesClosed: z.boolean(),
  round: z.int(),
  /** The number of the table's newest live event (`Last-Event-ID` of a stream that saw everything). */
  eventSeq: z.int(),
});

export const tableResponse = z.looseObject({
  session: sessionViewSchema,
  /** null: the session is not a table (nobody was invited yet). */
  table: z.nullable(tableViewSchema),
  members: z.array(memberViewSchema),
  /** Your seat: your role, your character, and whether you steer the story (undo, swipe, branch, invite). */
  you: z.looseObject({ role, character: z.nullable(z.string()), steers: z.boolean() }),
  queue: z.array(queuedTurnSchema),
  roundActions: z.array(roundActionViewSchema),
});

export const inviteCreatedResponse = z.looseObject({ invite: inviteViewSchema });
export const invitesResponse = z.looseObject({ invites: z.array(inviteViewSchema) });
export const joinedResponse = z.looseObject({
  session: sessionViewSchema,
  member: memberViewSchema,
  /** Keyless local play only: the key this browser sends from now on (shown once). */
  guestKey: z.optional(z.string()),
});
/** A round's action was kept (202): who has acted, who is still to. */
export const roundSubmittedResponse = z.looseObject({
  submitted: z.looseObject({
    round: z.int(),
    submitted: z.array(z.string()),
    waiting: z.array(z.string()),
  }),
});
export const memberResponse = z.looseObject({ member: memberViewSchema });
export const tableSettingsResponse = z.looseObject({ table: tableViewSchema });

const whoPlays = z.nullable(z.string().check(z.describe('the character playing; null for a round')));

/**
 * The events of a member's live stream (`GET /v1/sessions/{id}/live`, docs/multiplayer.md): `hello` (the
 * table now) or `reset` (the stream was too far behind: reload), the numbered table events, and what passes
 * while a turn plays. The server writes them (apps/server/live/render.ts, hub.ts); the web client's table
 * view parses each message with the schema of its event (web/table/use-table.ts).
 */
export const liveStreamEvents = {
  hello: tableResponse,
  reset: z.looseObject({ eventSeq: z.int() }),
  /** A committed turn as this member may see it; `gone` when it was deleted before the stream read it. */
  turn: z.union([
    z.looseObject({ turn: publicTurnSchema }),
    z.looseObject({ turnId: id, gone: z.literal(true) }),
  ]),
  head: z.looseObject({ headTurnId: id, move: z.enum(['undo', 'head', 'branch']), by: z.string() }),
  member_joined: z.looseObject({ character: z.string(), name: z.string(), role }),
  member_left: z.looseObject({ character: z.string() }),
  member_role: z.looseObject({ character: z.string(), role }),
  table: z.looseObject({ turnOrder, invitesClosed: z.boolean() }),
  queue: z.looseObject({ queue: z.array(queuedTurnSchema) }),
  round: z.looseObject({
    round: z.int(),
    submitted: z.array(z.looseObject({ character: z.string(), whisper: z.boolean() })),
    closed: z.boolean(),
  }),
  turn_started: z.looseObject({ turnId: id, by: whoPlays }),
  narration: z.looseObject({ turnId: id, text: z.string() }),
  turn_failed: z.looseObject({ turnId: id, by: whoPlays }),
} as const;

export type LiveStreamEvent = StreamEventOf<typeof liveStreamEvents>;
export type MemberView = z.infer<typeof memberViewSchema>;
export type InviteView = z.infer<typeof inviteViewSchema>;
export type TableView = z.infer<typeof tableViewSchema>;
export type TableResponse = z.infer<typeof tableResponse>;
