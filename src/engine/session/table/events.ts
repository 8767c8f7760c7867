// What happens at a table, as its live events say it: each is stored with the table's next number (so a
// member's stream catches up from `Last-Event-ID`) and announced on the bus. An event names what changed
// (a turn id, a character); the stream reads the rest and filters it for each member (apps/server/live).

import type { JsonValue, MemberRole, TurnOrder } from '../../../adapters/store/index.ts';

export type HeadMove = 'undo' | 'head' | 'branch';

export type TableEventBody =
  | {
      readonly kind: 'member_joined';
      readonly character: string;
      readonly name: string;
      readonly role: MemberRole;
    }
  | { readonly kind: 'member_left'; readonly character: string }
  | { readonly kind: 'member_role'; readonly character: string; readonly role: MemberRole }
  | { readonly kind: 'table'; readonly turnOrder: TurnOrder; readonly invitesClosed: boolean }
  | { readonly kind: 'queue'; readonly queue: readonly QueuedTurn[] }
  | {
      readonly kind: 'turn';
      readonly turnId: string;
      readonly parentId: string;
      /** Who played it; null for a turn of the whole round or one an author ran by hand. */
      readonly character: string | null;
      readonly whisper: boolean;
    }
  | {
      readonly kind: 'head';
      readonly headTurnId: string;
      readonly move: HeadMove;
      readonly character: string;
    }
  | {
      readonly kind: 'round';
      readonly round: number;
      readonly submitted: readonly { readonly character: string; readonly whisper: boolean }[];
      /** The round was played (or closed) and the next one began. */
      readonly closed: boolean;
    };

export type TableEventKind = TableEventBody['kind'];

/** One waiting turn as everyone at the table sees it: whose, in what place. */
export interface QueuedTurn {
  readonly character: string;
  readonly position: number;
}

const KINDS: ReadonlySet<string> = new Set<TableEventKind>([
  'member_joined',
  'member_left',
  'member_role',
  'table',
  'queue',
  'turn',
  'head',
  'round',
]);

/** A stored event read back (kind and payload as stored); undefined for a kind this build does not know. */
export function eventBody(kind: string, payload: JsonValue): TableEventBody | undefined {
  if (!KINDS.has(kind) || typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return undefined;
  return { ...payload, kind } as unknown as TableEventBody;
}

/** What the store keeps of an event: its kind apart, the rest as the payload. */
export function eventPayload(body: TableEventBody): {
  kind: TableEventKind;
  payload: Record<string, unknown>;
} {
  const { kind, ...payload } = body;
  return { kind, payload };
}
