// A table's event as one member's stream shows it: a committed turn through the member filter (their own
// character's state; another's whisper only as a turn that happened), the rest (who joined, the queue, the
// round, head moves) as they are, and what passes while a turn plays (its prose) only to those who may read
// the turn. Reads are shared by every stream of a session: a turn is read once per event, not per member.

import type { PassingPayload } from '../../../adapters/bus/index.ts';
import type { Session, TableEvent, Turn } from '../../../adapters/store/index.ts';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import { eventBody, type TableEventBody } from '../../../engine/session/index.ts';
import { memberTurnView, type Viewer } from '../member-views.ts';
import type { LiveEvent } from './stream.ts';

/** What rendering an event needs from the store, read at most once per event. */
export interface RenderReads {
  turn(turnId: string): Promise<Turn | undefined>;
  cartridge(): Promise<Cartridge>;
  session(): Promise<Session>;
}

/** Reads for one event, memoised: every member's rendering of it shares them. */
export function sharedReads(reads: RenderReads): RenderReads {
  const turns = new Map<string, Promise<Turn | undefined>>();
  let cartridge: Promise<Cartridge> | undefined;
  let session: Promise<Session> | undefined;
  return {
    turn: (turnId) => {
      let read = turns.get(turnId);
      if (read === undefined) {
        read = reads.turn(turnId);
        turns.set(turnId, read);
      }
      return read;
    },
    cartridge: () => {
      cartridge ??= reads.cartridge();
      return cartridge;
    },
    session: () => {
      session ??= reads.session();
      return session;
    },
  };
}

/** A stored event for one viewer; undefined when it is not theirs to see (or not a kind this build knows). */
export async function renderEvent(
  event: TableEvent,
  viewer: Viewer,
  reads: RenderReads,
): Promise<LiveEvent | undefined> {
  const body = eventBody(event.kind, event.payload);
  if (body === undefined) return undefined;
  const id = event.seq;
  switch (body.kind) {
    case 'turn': {
      const turn = await reads.turn(body.turnId);
      if (turn === undefined) return { event: 'turn', id, data: { turnId: body.turnId, gone: true } };
      return { event: 'turn', id, data: { turn: memberTurnView(turn, await reads.cartridge(), viewer) } };
    }
    case 'head':
      return {
        event: 'head',
        id,
        data: { headTurnId: body.headTurnId, move: body.move, by: body.character },
      };
    case 'member_joined':
    case 'member_left':
    case 'member_role':
    case 'table':
    case 'queue':
    case 'round':
      return { ...tableChange(body), id };
    default: {
      const unreachable: never = body;
      return unreachable;
    }
  }
}

/** A change of the table itself (who sits there, the order, the queue, the round): the same for everyone. */
function tableChange(
  body: Extract<
    TableEventBody,
    { kind: 'member_joined' | 'member_left' | 'member_role' | 'table' | 'queue' | 'round' }
  >,
): LiveEvent {
  switch (body.kind) {
    case 'member_joined':
      return { event: body.kind, data: { character: body.character, name: body.name, role: body.role } };
    case 'member_left':
      return { event: body.kind, data: { character: body.character } };
    case 'member_role':
      return { event: body.kind, data: { character: body.character, role: body.role } };
    case 'table':
      return { event: body.kind, data: { turnOrder: body.turnOrder, invitesClosed: body.invitesClosed } };
    case 'queue':
      return { event: body.kind, data: { queue: body.queue.map((q) => ({ ...q })) } };
    case 'round':
      return {
        event: body.kind,
        data: { round: body.round, submitted: body.submitted.map((a) => ({ ...a })), closed: body.closed },
      };
    default: {
      const unreachable: never = body;
      return unreachable;
    }
  }
}

/** Whether a viewer may see what passes during a turn by `character` (a whisper: its player and stewards). */
function hears(payload: PassingPayload, viewer: Viewer): boolean {
  if (payload.type === 'turn_failed') return true;
  return !payload.whisper || viewer.steers || payload.character === viewer.character;
}

/** What passes while a turn plays, for one viewer (never numbered: a reconnect gets the committed turn). */
export function renderPassing(payload: PassingPayload, viewer: Viewer): LiveEvent | undefined {
  if (!hears(payload, viewer)) return undefined;
  switch (payload.type) {
    case 'turn_started':
      return { event: 'turn_started', data: { turnId: payload.turnId, by: payload.character || null } };
    case 'narration':
      return { event: 'narration', data: { turnId: payload.turnId, text: payload.text } };
    case 'turn_failed':
      return { event: 'turn_failed', data: { turnId: payload.turnId, by: payload.character || null } };
    default: {
      const unreachable: never = payload;
      return unreachable;
    }
  }
}
