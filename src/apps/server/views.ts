// What clients see of sessions and turns. The player view never carries private fields: state goes through
// `publicState`, tool calls show only their names, and records, rolls and notes stay out. The full view
// (owner, author mode) carries everything.

import type { Cartridge } from '../../core/cartridge/index.ts';
import {
  classifyRecord,
  inputText,
  pendingInteraction as pendingInteractionOf,
  plainJson,
  tableOfInput,
} from '../../engine/session/index.ts';
import type { BranchTurn, Save, Session, Turn, TurnNode } from '../../adapters/store/index.ts';
import { publicOutcome, type TurnEvent } from '../../engine/turn/index.ts';
import { publicState } from '../../core/yare/index.ts';
import type {
  NodeView,
  PublicTurnView,
  SaveView,
  SessionView,
  TurnStreamEvent,
  TurnView,
} from '../contract/index.ts';

export type View = 'public' | 'full';

export function sessionView(session: Session): SessionView {
  return {
    id: session.id,
    cartridgeVersionId: session.cartridgeVersionId,
    personaId: session.personaId,
    title: session.title,
    headTurnId: session.headTurnId,
    turnCount: session.turnCount,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
  };
}

export function nodeView(node: TurnNode): NodeView {
  return {
    id: node.id,
    parentId: node.parentId,
    depth: node.depth,
    siblingIndex: node.siblingIndex,
    seq: node.seq,
    createdAt: node.createdAt,
  };
}

export function saveView(save: Save): SaveView {
  return {
    id: save.id,
    sessionId: save.sessionId,
    turnId: save.turnId,
    name: save.name,
    createdAt: save.createdAt,
  };
}

/** The client-facing part of `_pending_interaction` (never its resolver event). */
function pendingInteraction(state: unknown): PublicTurnView['pendingInteraction'] {
  return pendingInteractionOf(state) as PublicTurnView['pendingInteraction'];
}

/**
 * Who played a turn at a shared table (`by`: the one character, null for a round or a turn of one player),
 * whether it was a round (several characters' actions, its input one line each) and whether a whisper.
 */
export function playedBy(input: unknown): {
  by: { character: string; name: string } | null;
  round: boolean;
  whisper: boolean;
} {
  const table = tableOfInput(input);
  const one = table?.actors.length === 1 ? table.actors[0]! : undefined;
  return {
    by: one === undefined ? null : { character: one.character, name: one.name },
    round: (table?.actors.length ?? 0) > 1,
    whisper: table?.whisper ?? false,
  };
}

/**
 * The player view of a turn: public state only, no record, seed or ledger events. Its state and outcome are
 * built fresh for it (null-prototype dicts among them) and go out as the answer's JSON, which reads them like
 * plain objects: no copy is made.
 */
export function publicTurnView(turn: BranchTurn, cartridge: Cartridge): PublicTurnView {
  const record = classifyRecord(turn.record);
  return {
    ...nodeView(turn),
    sessionId: turn.sessionId,
    input: turn.parentId === null ? null : (inputText(turn.input) ?? null),
    ...playedBy(turn.input),
    narration: turn.narration,
    mode: record?.kind === 'turn' ? record.mode : (record?.kind ?? 'unknown'),
    state: publicState(turn.state, cartridge.rules.schema) as PublicTurnView['state'],
    pendingInteraction: pendingInteraction(turn.state),
    // The dice and what changed, public fields only: shown under the turn's prose.
    outcome:
      record?.kind === 'turn' ? (publicOutcome(cartridge.rules, record) as PublicTurnView['outcome']) : null,
  };
}

export function turnView(turn: Turn, cartridge: Cartridge, view: View): TurnView {
  const base = publicTurnView(turn, cartridge);
  if (view === 'public') return base;
  return {
    ...base,
    // A stored state is a game state: always an object (engine/turn GameState).
    state: turn.state as TurnView['state'],
    seed: turn.seed,
    record: turn.record,
    ledgerEvents: turn.ledgerEvents,
  };
}

/** A live turn event as a client sees it; undefined for events that are not sent (`done`, `error`). */
export function eventView(event: TurnEvent, view: View): TurnStreamEvent | undefined {
  switch (event.type) {
    case 'phase':
      return { event: 'phase', data: { phase: event.phase } };
    case 'tool_call':
      return {
        event: 'tool_call',
        data:
          view === 'full'
            ? { round: event.round, id: event.id, name: event.name, args: event.args }
            : { round: event.round, name: event.name },
      };
    case 'tool_result':
      return {
        event: 'tool_result',
        data:
          view === 'full'
            ? { round: event.round, id: event.id, name: event.name, ok: event.ok, content: event.content }
            : { round: event.round, name: event.name, ok: event.ok },
      };
    case 'narration_delta':
      return { event: 'narration', data: { text: event.text } };
    // The failure is sent once, as the stream's last event, by the route (with the HTTP error code).
    case 'error':
    case 'done':
      return undefined;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * The events of a committed turn rebuilt from its record, for a client reconnecting after the turn ended
 * (or replaying an idempotent request). Ids follow the live stream's numbering: `start` is 0.
 */
export function replayEvents(
  turn: Turn,
  cartridge: Cartridge,
  view: View,
  /** The committed turn as this reader sees it (a member's view), and whether they may read it whole. */
  seat?: { readonly shown: TurnView; readonly whole: boolean },
): Array<TurnStreamEvent & { readonly id: string }> {
  const events: TurnStreamEvent[] = [{ event: 'start', data: { turnId: turn.id, parentId: turn.parentId } }];
  const record = seat?.whole === false ? undefined : classifyRecord(turn.record);
  if (record?.kind === 'turn') {
    for (const tool of record.tools) {
      const call = eventView(
        { type: 'tool_call', round: tool.round, id: tool.id, name: tool.name, args: tool.args },
        view,
      );
      const result = eventView(
        {
          type: 'tool_result',
          round: tool.round,
          id: tool.id,
          name: tool.name,
          ok: tool.ok,
          content: tool.content,
        },
        view,
      );
      if (call) events.push(call);
      if (result) events.push(result);
    }
  }
  if (turn.narration !== '' && seat?.whole !== false)
    events.push({ event: 'narration', data: { text: turn.narration } });
  events.push({
    event: 'committed',
    data: { turn: seat?.shown ?? turnView(turn, cartridge, view), replayed: true },
  });
  return events.map((event, seq) => ({ ...event, id: `${turn.id}:${seq}` }));
}
