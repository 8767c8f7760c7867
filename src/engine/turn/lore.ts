// The lore of a cartridge in a turn. The index and the compiled `when:` conditions are built on first use and
// kept with the cartridge object; the index is also kept by the lore's text, so every session, turn and
// persona of the same lore indexes it once (the original rebuilt it every turn; a persona whose macros change
// the lore's text has its own index). Each turn evaluates the conditions once on the state and world it
// begins with; a section whose condition holds is in play without a keyword, one whose condition is false is
// never shown, whatever the words (docs/cartridges.md, "Lore that follows the state").

import {
  admissionOf,
  type ConditionVerdicts,
  compileLoreConditions,
  evaluateLoreConditions,
  type LoreConditions,
} from '../../core/cartridge/index.ts';
import type { World } from '../../core/ledger/index.ts';
import {
  chunkConditionalLoreSteps,
  fitWithReceipts,
  type LoreChunk,
  type LoreIndex,
  type LoreLookupOptions,
  type LoreReceipt,
  type LoreLookupResult,
  lookupAdmitted,
  loreIndexSteps,
} from '../../core/lore/index.ts';
import {
  runSliced,
  runUnsliced,
  type TurnBudget,
  UNMETERED,
  type WorkMeter,
} from '../../core/turn-budget.ts';
import type { Dict } from '../../core/yare/index.ts';
import type { SectionItem } from './prompts.ts';
import type { TurnCartridge } from './types.ts';

/** Lore indexes kept per process by the lore's text, least recently used dropped first. */
export const LORE_INDEXES_KEPT = 32;

const byText = new Map<string, LoreIndex>();

/** The index of this lore text, built once and shared by every cartridge object with the same text. */
function* indexByText(
  text: string,
  build: () => Generator<undefined, LoreIndex, undefined>,
): Generator<undefined, LoreIndex, undefined> {
  let index = byText.get(text);
  if (index === undefined) {
    index = yield* build();
    if (byText.size >= LORE_INDEXES_KEPT) byText.delete(byText.keys().next().value!);
  } else byText.delete(text);
  byText.set(text, index);
  return index;
}

export interface TurnLore {
  readonly index: LoreIndex;
  readonly conditions: LoreConditions;
  /** Every section in file order, `when:` lines taken out. */
  readonly chunks: readonly LoreChunk[];
  /** The sections that carry a condition, in file order. */
  readonly conditional: readonly LoreChunk[];
}

const lores = new WeakMap<TurnCartridge, TurnLore>();

export function loreOf(cartridge: TurnCartridge): TurnLore {
  return runUnsliced(loreSteps(cartridge, UNMETERED));
}

/**
 * `loreOf` in a turn: the first turn of a lore text chunks and indexes it as a sliced loop, giving the event
 * loop back whenever `budget` says its slice is due (the index of a lore file at its limits takes several
 * hundred milliseconds to build); the time counts against the turn's budget.
 */
export function loreOfSliced(cartridge: TurnCartridge, budget: TurnBudget): Promise<TurnLore> {
  const known = lores.get(cartridge);
  if (known !== undefined) return Promise.resolve(known);
  return budget.measureAsync({ kind: 'lore', what: 'index of bot_lore.md' }, () =>
    runSliced(loreSteps(cartridge, budget), () => budget.breathe()),
  );
}

function* loreSteps(cartridge: TurnCartridge, meter: WorkMeter): Generator<undefined, TurnLore, undefined> {
  const known = lores.get(cartridge);
  if (known !== undefined) return known;
  const split = yield* chunkConditionalLoreSteps(cartridge.lore, meter);
  // The loader already reported any condition that does not compile; such a section stays out.
  const { conditions } = compileLoreConditions(cartridge.rules, split, cartridge.worldInfo, {
    lore: 'bot_lore.md',
  });
  const ids = new Set(split.conditions.map((c) => c.chunkId));
  const lore: TurnLore = {
    index: yield* indexByText(cartridge.lore, () => loreIndexSteps(split.chunks, meter)),
    conditions,
    chunks: split.chunks,
    conditional: split.chunks.filter((c) => ids.has(c.id)),
  };
  lores.set(cartridge, lore);
  return lore;
}

export function loreIndexOf(cartridge: TurnCartridge): LoreIndex {
  return loreOf(cartridge).index;
}

/** This turn's verdicts on every condition of the cartridge. */
export function loreVerdicts(cartridge: TurnCartridge, state: Dict, world: World): ConditionVerdicts {
  return evaluateLoreConditions(loreOf(cartridge).conditions, state, world);
}

/** Lore texts in play kept per cartridge, by which conditions held (a few combinations recur in play). */
const IN_PLAY_TEXTS_KEPT = 16;
const inPlayTexts = new WeakMap<TurnCartridge, Map<string, string>>();

/**
 * The lore as it may be read now, for what shows lore without a model (the offline narrator's look and
 * examine): the sections whose condition is false left out, and no `when:` line. Lore with no condition is
 * the text as written.
 */
export function loreInPlay(cartridge: TurnCartridge, verdicts: ConditionVerdicts): string {
  const lore = loreOf(cartridge);
  if (lore.conditional.length === 0) return cartridge.lore;
  let key = '';
  for (const chunk of lore.conditional) key += verdicts.sections.get(chunk.id)?.held === true ? '1' : '0';
  let texts = inPlayTexts.get(cartridge);
  if (texts === undefined) {
    texts = new Map();
    inPlayTexts.set(cartridge, texts);
  }
  let text = texts.get(key);
  if (text === undefined) {
    text = lore.chunks
      .filter((chunk) => verdicts.sections.get(chunk.id)?.held !== false)
      .map((chunk) => chunk.text)
      .join('\n\n');
    if (texts.size >= IN_PLAY_TEXTS_KEPT) texts.clear();
    texts.set(key, text);
  }
  return text;
}

/** A lookup of the player's or the Director's words, with sections whose condition is false left out. */
export function lookupInPlay(
  cartridge: TurnCartridge,
  verdicts: ConditionVerdicts,
  queries: readonly string[],
  options: LoreLookupOptions,
): { result: LoreLookupResult; receipts: readonly LoreReceipt[] } {
  return lookupAdmitted(loreOf(cartridge).index, queries, options, (chunk) =>
    admissionOf(verdicts, chunk.id),
  );
}

/**
 * `lookupInPlay` in a turn, charged to its budget: one step for each section a query may score, and the
 * time the lookup takes, named by the first query.
 */
export function lookupInTurn(
  turn: {
    readonly cartridge: TurnCartridge;
    readonly loreVerdicts: ConditionVerdicts;
    readonly budget: TurnBudget;
  },
  queries: readonly string[],
  options: LoreLookupOptions,
): { result: LoreLookupResult; receipts: readonly LoreReceipt[] } {
  const first = queries[0] ?? '';
  const part = {
    kind: 'lore',
    what: `lookup ${JSON.stringify(first.length > 40 ? `${first.slice(0, 40)}…` : first)}`,
  } as const;
  turn.budget.spend(part, loreOf(turn.cartridge).index.chunks.length * queries.length);
  return turn.budget.measure(part, () => lookupInPlay(turn.cartridge, turn.loreVerdicts, queries, options));
}

/**
 * The sections in play by their condition alone (no keyword needed), in file order, fitted to `tokenBudget`;
 * a receipt for every conditional section (held and shown, held and over the budget, or false).
 */
export function sectionsInPlay(
  cartridge: TurnCartridge,
  verdicts: ConditionVerdicts,
  tokenBudget: number,
): { result: LoreLookupResult; receipts: readonly LoreReceipt[] } {
  const lore = loreOf(cartridge);
  const held: LoreChunk[] = [];
  const why = new Map<string, string>();
  const excluded: LoreReceipt[] = [];
  for (const chunk of lore.conditional) {
    const v = verdicts.sections.get(chunk.id);
    if (v === undefined) continue;
    if (v.held) {
      held.push(chunk);
      why.set(chunk.id, v.why);
    } else
      excluded.push({
        chunkId: chunk.id,
        heading: chunk.heading,
        line: chunk.line,
        status: 'excluded',
        why: v.why,
        tokens: chunk.tokens,
      });
  }
  const fitted = fitWithReceipts(held, tokenBudget, why);
  return { result: fitted.result, receipts: [...fitted.receipts, ...excluded] };
}

/** Lore receipts as section items: the text of each included chunk, so assembly can tell what a cut kept. */
export function loreItems(receipts: readonly LoreReceipt[], chunks: readonly LoreChunk[]): SectionItem[] {
  const text = new Map(chunks.map((c) => [c.id, c.text]));
  return receipts.map((r): SectionItem => {
    const label = `${r.chunkId} ${r.heading === '' ? '(before the first heading)' : JSON.stringify(r.heading)}`;
    const why = `${label}: ${r.why}`;
    const id = `lore:${r.chunkId}`;
    if (r.status === 'included') {
      const t = text.get(r.chunkId);
      return t === undefined ? { id, why, tokens: r.tokens } : { id, why, text: t, tokens: r.tokens };
    }
    return { id, why, tokens: r.tokens, status: r.status };
  });
}
