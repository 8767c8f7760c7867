// Edits keep the game (docs/sillytavern.md): when the chat shows an earlier player message edited, the turns
// from that message to the one the chat reached are played again onto the edited message — from their
// recorded rule calls and seeds, no model call: each keeps its narration (what the chat shows), its input
// becomes the chat's, and its state is the rules replayed on the new parent's state. A rule call that no
// longer gives the recorded result is named in the reply's note.

import type { Cartridge } from '../../../core/cartridge/index.ts';
import { classifyRecord, type StoredTurnRecord } from '../../../engine/session/index.ts';
import type { JsonValue, Session, Turn, TurnMessage } from '../../../adapters/store/index.ts';
import { type GameState, replayTurnRules } from '../../../engine/turn/index.ts';
import { diffStates, type Dict } from '../../../core/yare/index.ts';
import type { AppDeps } from '../deps.ts';
import type { Edit } from './conversation.ts';
import { openAiError } from './errors.ts';
import { noteBlock } from './resolve.ts';

/** Turns rebased for one request at most (the chat's length bounds it too). */
export const MAX_REBASED_TURNS = 200;
/** Problems named in one note. */
const MAX_NAMED_PROBLEMS = 3;

function quotedInput(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `“${flat.length > 40 ? `${flat.slice(0, 39)}…` : flat}”`;
}

export interface RebaseResult {
  readonly node: TurnMessage;
  readonly note: string;
}

/**
 * Rebases the turns from the first edited one down to `node` onto the edited messages. The new branch
 * becomes the session's head; the old one stays in the tree.
 */
export async function rebaseEdits(
  deps: AppDeps,
  principalId: string,
  session: Session,
  cartridge: Cartridge,
  edits: readonly Edit[],
  node: TurnMessage,
): Promise<RebaseResult> {
  const first = edits[0];
  if (first === undefined || first.original.parentId === null) return { node, note: '' };
  const lineage = (await deps.store.getLineage(session.id, node.id)) ?? [];
  const from = lineage.findIndex((t) => t.id === first.original.id);
  if (from < 0) return { node, note: '' };
  const path = lineage.slice(from, from + MAX_REBASED_TURNS);
  const editedInput = new Map(edits.map((e) => [e.original.id, e.input]));
  let parent: Turn | undefined = await deps.store.getTurn(session.id, first.original.parentId);
  if (parent === undefined) throw openAiError(404, 'not_found', `turn ${first.original.parentId} is gone`);
  const loaded = await deps.service.worldAt(principalId, session.id, parent.id);
  let world = loaded.result.ok ? loaded.result.world : undefined;
  let head = session.headTurnId;
  const problems: string[] = [];
  let rebased = 0;
  for (const step of path) {
    const turn = await deps.store.getTurn(session.id, step.id);
    const record = turn === undefined ? undefined : classifyRecord(turn.record);
    if (turn === undefined || record?.kind !== 'turn') {
      problems.push(
        `${quotedInput(String(step.narration).slice(0, 40))} is not a played turn and was not carried over`,
      );
      break;
    }
    const played = record as StoredTurnRecord;
    const input = editedInput.get(step.id) ?? played.input.text;
    const before = parent.state as GameState;
    const replay = replayTurnRules(cartridge, before, played, world === undefined ? {} : { world });
    for (const divergence of replay.divergences) problems.push(`${quotedInput(input)}: ${divergence}`);
    const ledgerOk = replay.world !== undefined && !replay.divergences.some((d) => d.includes('ledger'));
    const nextRecord: StoredTurnRecord = {
      ...played,
      input: { ...played.input, text: input },
      stateAfter: replay.state as GameState,
      delta: diffStates(before as unknown as Dict, replay.state),
      messages: [
        { role: 'user', content: input },
        { role: 'assistant', content: played.narration },
      ],
      ...(ledgerOk ? {} : { ledgerEvents: [] }),
    };
    const appended = await deps.store.appendTurn({
      sessionId: session.id,
      parentId: parent.id,
      expectedHeadId: head,
      input: nextRecord.input as unknown as JsonValue,
      narration: turn.narration,
      record: nextRecord as unknown as JsonValue,
      state: replay.state as unknown as JsonValue,
      ledgerEvents: ledgerOk ? turn.ledgerEvents : [],
      ...(played.ledger.gameTime === undefined ? {} : { ledgerGameTime: played.ledger.gameTime }),
      seed: turn.seed,
      createdAt: Date.now(),
    });
    if (!appended.ok) {
      if (appended.reason === 'conflict')
        throw openAiError(409, 'conflict', 'the game moved on while the edited chat was being rebased');
      throw openAiError(404, 'not_found', `turn ${parent.id} is gone`);
    }
    parent = appended.turn;
    head = appended.turn.id;
    world = ledgerOk ? replay.world : world;
    rebased++;
  }
  const shown = problems.slice(0, MAX_NAMED_PROBLEMS).join('; ');
  const more =
    problems.length > MAX_NAMED_PROBLEMS ? ` (and ${problems.length - MAX_NAMED_PROBLEMS} more)` : '';
  const note =
    problems.length === 0
      ? ''
      : noteBlock(
          `your edit was applied to ${rebased} turn(s), but not everything still applies: ${shown}${more}.`,
        );
  return { node: parent, note };
}
