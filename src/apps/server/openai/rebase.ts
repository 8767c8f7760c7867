// Carrying a chat's changed history for one request (docs/sillytavern.md): the walk's rebase steps
// (conversation.ts), at most `maxRebasedTurns` per request (ServerLimits), planned by the session layer
// (engine/session/rebase.ts: from the turns' records, no model call, the event loop given back between slices)
// and worded for the reply. Nothing is stored here: the chain goes with the request's turn, or alone when the
// request plays none.

import type { RebasedChain } from '../../../engine/session/index.ts';
import type { AppDeps } from '../deps.ts';
import { noteBlock, quoted } from './notes.ts';
import type { Conversation } from './resolve.ts';

/** Problems named in one note. */
const MAX_NAMED_PROBLEMS = 3;

export interface ChatRebase {
  readonly chain: RebasedChain;
  /** Every step was carried: the request's turn may follow the chain. */
  readonly complete: boolean;
  /** One line for the reply ('' when everything carried over as recorded). */
  readonly note: string;
}

function problemsNote(chain: RebasedChain): string {
  if (chain.problems.length === 0) return '';
  const shown = chain.problems
    .slice(0, MAX_NAMED_PROBLEMS)
    .map((p) => `${quoted(p.input)}: ${p.problem}`)
    .join('; ');
  const more =
    chain.problems.length > MAX_NAMED_PROBLEMS
      ? ` (and ${chain.problems.length - MAX_NAMED_PROBLEMS} more)`
      : '';
  return noteBlock(
    `the chat's changes were carried over ${chain.turns.length} turn(s), but not everything still applies: ${shown}${more}.`,
  );
}

export async function planChatRebase(
  deps: AppDeps,
  principalId: string,
  conversation: Conversation,
): Promise<ChatRebase> {
  const max = deps.limits.maxRebasedTurns;
  const steps = conversation.steps.slice(0, max);
  const chain = await deps.service.planRebase(
    principalId,
    conversation.session.id,
    conversation.base.id,
    steps,
  );
  const notes = [problemsNote(chain)];
  if (chain.stoppedAt !== undefined)
    notes.push(
      noteBlock(
        `${quoted(steps[chain.stoppedAt]!.input)} is not a played turn and was not carried over: the story goes on from the turn before it.`,
      ),
    );
  const complete = conversation.steps.length <= max || chain.stoppedAt !== undefined;
  if (!complete)
    notes.push(
      noteBlock(
        `the chat changed ${conversation.steps.length} turns back: ${chain.turns.length} of them were carried over onto it (at most ${max} per message). Send your message again to carry over the rest and play it.`,
      ),
    );
  return { chain, complete, note: notes.filter((n) => n !== '').join(' ') };
}
