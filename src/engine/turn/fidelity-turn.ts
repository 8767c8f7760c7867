// The fidelity step of an online turn (after the Narrator and the world ledger): check the prose against
// the turn's facts (fidelity.ts); on a contradiction, one repair round in the Narrator's own conversation
// with the specific corrections; if the repaired prose still contradicts them (or the repair call fails),
// the engine corrects the first prose itself. The player has already seen the streamed prose: the record's
// narration (what is stored and shown from then on) is the fixed one, and the record says what was found.

import { ModelError } from '../../adapters/llm/index.ts';
import type { ChatModel } from '../../adapters/llm/index.ts';
import { diffStates } from '../../core/yare/index.ts';
import type { TurnContext } from './context.ts';
import { checkNarration, type FidelityCheck, type FidelityFacts, repairRequest } from './fidelity.ts';
import type { LedgerConversation } from './ledger/turn.ts';
import { notesForNarrator } from './private-notes.ts';
import { MAX_NARRATION_CHARS } from './limits.ts';
import { sanitizeForPrompt } from '../../core/text-policy.ts';
import type { FidelityRecord } from './types.ts';

/** `repair` (default): one repair round, then the engine's correction; `correct`: the engine's at once; `off`. */
export type NarrationCheck = 'repair' | 'correct' | 'off';

export async function settleNarration(
  ctx: TurnContext,
  model: ChatModel,
  conversation: LedgerConversation,
  narration: string,
  stateBefore: unknown,
  advancedSeconds: number,
  mode: NarrationCheck,
): Promise<{ narration: string; fidelity?: FidelityRecord }> {
  if (mode === 'off' || narration.trim() === '') return { narration };
  const facts: FidelityFacts = {
    rules: ctx.rules,
    stateBefore,
    stateAfter: ctx.state,
    delta: diffStates(stateBefore, ctx.state),
    rolls: ctx.dice.rolls,
    // The notes as the Narrator read them: a number it could not have seen is no fact it may tell.
    notes: notesForNarrator(ctx.notes, ctx.privateNoteSpans),
    advancedSeconds,
  };
  const first = checkNarration(narration, facts);
  if (first.found.length === 0) return { narration, fidelity: { outcome: 'clean', found: [], corrected: 0 } };
  if (mode === 'repair') {
    const repaired = await repairedNarration(ctx, model, conversation, narration, first.found, facts);
    if (repaired !== undefined)
      return { narration: repaired, fidelity: { outcome: 'repaired', found: first.found, corrected: 0 } };
  }
  return {
    narration: first.corrected,
    fidelity: { outcome: 'corrected', found: first.found, corrected: first.changedSentences },
  };
}

/**
 * One repair round in the Narrator's conversation: the repaired prose when it contradicts nothing, else
 * undefined with a warning saying why (the engine then corrects the first prose).
 */
async function repairedNarration(
  ctx: TurnContext,
  model: ChatModel,
  conversation: LedgerConversation,
  narration: string,
  found: FidelityCheck['found'],
  facts: FidelityFacts,
): Promise<string | undefined> {
  ctx.throwIfAborted();
  try {
    const response = await model.generate({
      system: conversation.system,
      messages: [
        ...conversation.messages,
        { role: 'assistant', content: narration },
        { role: 'user', content: repairRequest(found) },
      ],
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    const repaired = sanitizeForPrompt(response.text.slice(0, MAX_NARRATION_CHARS)).trim();
    if (repaired !== '' && checkNarration(repaired, facts).found.length === 0) return repaired;
    ctx.warnings.push(
      'the repaired narration still contradicted the turn; the engine corrected the first one',
    );
  } catch (error) {
    if (!(error instanceof ModelError) || error.kind === 'aborted') throw error;
    ctx.warnings.push(`the narration repair call failed (${error.kind}); the engine corrected the narration`);
  }
  return undefined;
}
