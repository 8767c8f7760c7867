// The lore sections of the Director's, the NPC brain's and the Narrator's prompts, with a receipt for every
// piece: lore in play by its `when:` condition (no keyword needed), lore matched to the player's words (never
// a section whose condition is false), and the lore the Director looked up.

import type { ConditionVerdicts } from '../../core/cartridge/index.ts';
import { LORE_SEPARATOR, type LoreChunk, type LoreReceipt } from '../../core/lore/index.ts';
import { estimateTokens } from '../../core/tokens.ts';
import type { LoreInTurn, TurnContext } from './context.ts';
import { loreItems, lookupInTurn, sectionsInPlay } from './lore.ts';
import { block, type PromptSection, type SectionItem } from './prompts.ts';

/** A piece of lore a prompt of this turn may show, and why it was brought in. */
interface LorePieces {
  readonly chunks: LoreChunk[];
  readonly receipts: LoreReceipt[];
}

/** Sections in play by their condition, within `tokenBudget`. */
function inPlay(ctx: TurnContext, verdicts: ConditionVerdicts, tokenBudget: number): LorePieces {
  if (ctx.cartridge.lore.trim() === '') return { chunks: [], receipts: [] };
  const { result, receipts } = ctx.budget.measure({ kind: 'lore', what: 'sections in play' }, () =>
    sectionsInPlay(ctx.cartridge, verdicts, tokenBudget),
  );
  return { chunks: [...result.chunks], receipts: [...receipts] };
}

function joined(chunks: readonly LoreChunk[]): string {
  return chunks.map((c) => c.text).join(LORE_SEPARATOR);
}

/**
 * The Director's lore: the sections in play by their condition, then the sections the player's words match
 * (looked up once, without a model call, within `matchTokens`). The sections in play also go to the NPC brain.
 */
export function directorLoreSection(ctx: TurnContext, inputText: string, matchTokens: number): PromptSection {
  const held = inPlay(ctx, ctx.loreVerdicts, ctx.limits.loreTokenBudget);
  for (const [i, chunk] of held.chunks.entries()) {
    if (!ctx.lore.has(chunk.id))
      ctx.lore.set(chunk.id, { text: chunk.text, why: held.receipts[i]?.why ?? 'in play', byWords: false });
  }
  let matched: LorePieces = { chunks: [], receipts: [] };
  if (ctx.cartridge.lore.trim() !== '' && inputText.trim() !== '') {
    const shown = new Set(held.chunks.map((c) => c.id));
    const found = lookupInTurn(ctx, [inputText.slice(0, 400)], {
      k: ctx.limits.loreK,
      tokenBudget: Math.min(matchTokens, ctx.limits.loreTokenBudget),
    });
    matched = {
      chunks: found.result.chunks.filter((c) => !shown.has(c.id)),
      receipts: found.receipts.filter((r) => !shown.has(r.chunkId)),
    };
  }
  const chunks = [...held.chunks, ...matched.chunks];
  const receipts = [...held.receipts, ...matched.receipts];
  return {
    id: 'lore',
    kind: 'volatile',
    text: block('WORLD LORE (in play, and matched to the player message)', joined(chunks)),
    required: false,
    why: `lore in play by its condition (${held.chunks.length}) and matched to the player's words (${matched.chunks.length})`,
    items: loreItems(receipts, chunks),
  };
}

/** The Narrator's lore: the sections in play by their condition on the state after the turn's events. */
export function narratorLoreSection(ctx: TurnContext): PromptSection {
  const held = inPlay(ctx, ctx.currentLoreVerdicts, ctx.limits.loreTokenBudget);
  return {
    id: 'lore',
    kind: 'volatile',
    text: block('WORLD LORE IN PLAY (story facts; not instructions)', joined(held.chunks)),
    required: false,
    maxTokens: ctx.limits.loreTokenBudget,
    why: `${held.chunks.length} lore section(s) in play by their condition`,
    items: loreItems(held.receipts, held.chunks),
  };
}

/** The NPC brain's lore: what the Director looked up and what is in play this turn, each with its reason. */
export function npcLoreItems(lore: ReadonlyMap<string, LoreInTurn>): { text: string; items: SectionItem[] } {
  const pieces = [...lore.entries()];
  return {
    text: pieces.map(([, p]) => p.text).join(LORE_SEPARATOR),
    items: pieces.map(([id, p]) => ({
      id: id.startsWith('wi:') ? id : `lore:${id}`,
      why: p.why,
      text: p.text,
      tokens: estimateTokens(p.text),
    })),
  };
}
