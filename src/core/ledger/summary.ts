// The compact world summary the Director and Narrator prompts get: the scene first, who is present (status,
// conditions, what they carry), open threads, then the facts that matter now, ranked by how closely they
// touch the scene. It fits a token budget and accounts for what it left out, so the prompt trace can say
// why something was or was not shown.

import { estimateTokens } from '../tokens.ts';
import type { LedgerScalar } from './events.ts';
import { DEFAULT_SUMMARY_TOKEN_BUDGET } from './limits.ts';
import { type SummaryIndex, summaryIndexOf } from './summary-index.ts';
import {
  type EntityRecord,
  type FactRecord,
  getFact,
  knowsFact,
  lookup,
  type Scene,
  type ThreadRecord,
  type World,
} from './world.ts';

export interface SummaryCounts {
  readonly scene: number;
  readonly present: number;
  readonly threads: number;
  readonly facts: number;
}

/** One line of the summary, or the first line a section could not fit: what it is and why it is there. */
export interface SummaryPiece {
  /** `scene`, `entity:<key>`, `thread:<key>`, `fact:<id>`. */
  readonly id: string;
  /** Why it is in the summary (present in the scene, an open thread, a fact touching the scene, recency). */
  readonly why: string;
  readonly text: string;
  /** False for the first line of a section that did not fit the budget (the rest are counted in `dropped`). */
  readonly included: boolean;
}

export interface WorldSummary {
  readonly text: string;
  readonly tokens: number;
  readonly budget: number;
  readonly included: SummaryCounts;
  readonly dropped: SummaryCounts;
  /** The receipts of the summary: every line shown, and the first line each section left out. */
  readonly pieces: readonly SummaryPiece[];
}

export interface SummaryOptions {
  readonly tokenBudget?: number;
  /**
   * Whose summary it is: only facts this entity knows (public ones and those it learned) are shown. Absent:
   * every fact (the Director's view).
   */
  readonly viewer?: string;
}

/** Facts a viewer's summary looks through for ones it knows, at most (the rest count as left out). */
export const MAX_SUMMARY_FACTS_SCANNED = 5_000;

function scalarText(value: LedgerScalar): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function label(world: World, key: string): string {
  const entity = lookup(world.entities, key);
  return entity ? `${entity.name} [${key}]` : `[${key}]`;
}

function entityLine(world: World, entity: EntityRecord, carried: readonly string[]): string {
  const parts = [`- ${entity.name} [${entity.key}]`];
  if (entity.entityType !== undefined) parts.push(`(${entity.entityType})`);
  if (entity.status !== undefined) parts.push(`status: ${entity.status}`);
  if (entity.conditions.length > 0) parts.push(`conditions: ${entity.conditions.join(', ')}`);
  if (carried.length > 0) parts.push(`carries: ${carried.map((k) => label(world, k)).join(', ')}`);
  const attrs = Object.keys(entity.attributes).sort();
  if (attrs.length > 0)
    parts.push(`attributes: ${attrs.map((a) => `${a}=${scalarText(entity.attributes[a]!)}`).join(', ')}`);
  return parts.join('; ').replace('; (', ' (');
}

function factLine(world: World, fact: FactRecord): string {
  const subject = fact.subject === undefined ? '' : `${label(world, fact.subject)} `;
  const object =
    fact.object === undefined
      ? ''
      : getFact(world, fact.object)
        ? ` fact [${fact.object}]`
        : ` ${label(world, fact.object)}`;
  const value = fact.value === undefined ? '' : ` = ${scalarText(fact.value)}`;
  return `- [${fact.id}] ${subject}${fact.predicate}${object}${value} (turn ${fact.added.turn})`;
}

/** Relevance of a fact to the scene: about a present entity or the place > about what they carry > other. */
function factScore(fact: FactRecord, focus: ReadonlySet<string>, nearby: ReadonlySet<string>): number {
  let score = 0;
  for (const key of [fact.subject, fact.object]) {
    if (key === undefined) continue;
    if (focus.has(key)) score += 4;
    else if (nearby.has(key)) score += 2;
  }
  return score;
}

/**
 * Builds the summary within `tokenBudget` (estimateTokens: ceil(chars / 4)). Lines are added in priority
 * order and a section stops at the first line that does not fit, so a higher-ranked line is never dropped
 * for a lower-ranked one.
 */
export function summarizeWorld(world: World, options: SummaryOptions = {}): WorldSummary {
  const budget = options.tokenBudget ?? DEFAULT_SUMMARY_TOKEN_BUDGET;
  const out = new SummaryLines(budget);
  // Everything below reads the world through its summary index, so the cost is what the summary shows
  // (the scene's entities and facts, the open threads, the newest facts up to the budget), not the world.
  const index = summaryIndexOf(world);
  const scene = world.scene;
  const present = scene?.present.filter((k) => lookup(world.entities, k) !== undefined) ?? [];

  const sceneIncluded = scene ? sceneSection(out, world, scene) : 0;
  const presentIncluded = sceneIncluded ? presentSection(out, world, index, present) : 0;
  const open = [...index.openThreads.values()].sort(
    (a, b) => b.opened.turn - a.opened.turn || (a.key < b.key ? -1 : 1),
  );
  const threadsIncluded = threadsSection(out, open);
  const factCount = index.current.size;
  const factsIncluded =
    factCount > 0 ? factsSection(out, world, factRanking(index, scene, present), options.viewer) : 0;

  const text = out.lines.join('\n');
  return {
    text,
    tokens: estimateTokens(text),
    budget,
    included: {
      scene: sceneIncluded,
      present: presentIncluded,
      threads: threadsIncluded,
      facts: factsIncluded,
    },
    dropped: {
      scene: scene && !sceneIncluded ? 1 : 0,
      present: present.length - presentIncluded,
      threads: open.length - threadsIncluded,
      facts: factCount - factsIncluded,
    },
    pieces: out.pieces,
  };
}

/** The summary's lines so far within the budget, with the receipt of every line offered. */
class SummaryLines {
  readonly lines: string[] = [];
  readonly pieces: SummaryPiece[] = [];
  #used = 0;

  constructor(private readonly budget: number) {}

  /** Adds `line` if it fits (and says so); a line with a `piece` leaves a receipt either way. */
  fits(line: string, piece?: { id: string; why: string }): boolean {
    const cost = estimateTokens(`${line}\n`);
    if (this.#used + cost > this.budget) {
      if (piece !== undefined) this.pieces.push({ ...piece, text: line, included: false });
      return false;
    }
    this.lines.push(line);
    if (piece !== undefined) this.pieces.push({ ...piece, text: line, included: true });
    this.#used += cost;
    return true;
  }
}

function sceneSection(out: SummaryLines, world: World, scene: Scene): number {
  const where = scene.location === undefined ? '' : ` at ${label(world, scene.location)}`;
  const what = scene.summary === undefined ? '' : ` ${JSON.stringify(scene.summary)}`;
  const piece = { id: 'scene', why: `the scene, set at turn ${scene.set.turn}` };
  return out.fits(`Scene (turn ${scene.set.turn})${where}:${what}`, piece) ? 1 : 0;
}

function presentSection(
  out: SummaryLines,
  world: World,
  index: SummaryIndex,
  present: readonly string[],
): number {
  let included = 0;
  if (present.length === 0 || !out.fits('Present:')) return 0;
  for (const key of present) {
    const carried = [...(index.carried.get(key) ?? [])].sort();
    const piece = { id: `entity:${key}`, why: 'present in the scene' };
    if (!out.fits(entityLine(world, lookup(world.entities, key)!, carried), piece)) break;
    included += 1;
  }
  return included;
}

function threadsSection(out: SummaryLines, open: readonly ThreadRecord[]): number {
  let included = 0;
  if (open.length === 0 || !out.fits('Open threads:')) return 0;
  for (const t of open) {
    const piece = { id: `thread:${t.key}`, why: `an open thread (opened at turn ${t.opened.turn})` };
    if (!out.fits(`- [${t.key}] ${t.title}`, piece)) break;
    included += 1;
  }
  return included;
}

/** Current facts in the order the summary offers them, and the score of those touching the scene. */
interface FactRanking {
  readonly touching: ReadonlyMap<string, number>;
  readonly ranked: () => Iterable<FactRecord>;
}

function factRanking(index: SummaryIndex, scene: Scene | null, present: readonly string[]): FactRanking {
  const focus = new Set<string>(present);
  if (scene?.location !== undefined) focus.add(scene.location);
  const nearby = new Set<string>();
  for (const key of focus) for (const item of index.carried.get(key) ?? []) nearby.add(item);
  for (const key of focus)
    for (const there of index.located.get(key) ?? []) if (!focus.has(there)) nearby.add(there);
  // Facts touching the scene (score > 0) ranked among themselves; then every other current fact, newest
  // first — the same order as ranking all current facts by score, then turn (newest first), then id.
  const touching = new Map<string, number>();
  for (const key of [...focus, ...nearby])
    for (const id of index.factsAbout.get(key) ?? [])
      if (!touching.has(id)) touching.set(id, factScore(index.current.get(id)!, focus, nearby));
  const scored = [...touching]
    .map(([id, score]) => ({ fact: index.current.get(id)!, score }))
    .sort(
      (a, b) =>
        b.score - a.score || b.fact.added.turn - a.fact.added.turn || (a.fact.id < b.fact.id ? -1 : 1),
    );
  function* ranked(): Generator<FactRecord> {
    for (const { fact } of scored) yield fact;
    for (const fact of index.newestFacts()) if (!touching.has(fact.id)) yield fact;
  }
  return { touching, ranked };
}

function factsSection(
  out: SummaryLines,
  world: World,
  { touching, ranked }: FactRanking,
  viewer: string | undefined,
): number {
  let included = 0;
  let scanned = 0;
  if (!out.fits('Facts:')) return 0;
  for (const fact of ranked()) {
    if (viewer !== undefined) {
      // Unknown facts are passed over unnamed (not even a receipt): a viewer's summary never shows them.
      if (++scanned > MAX_SUMMARY_FACTS_SCANNED) break;
      if (!knowsFact(fact, viewer)) continue;
    }
    const about = touching.get(fact.id);
    const why =
      about === undefined || about === 0
        ? `a fact that holds, newest first (recorded at turn ${fact.added.turn})`
        : `a fact that holds about ${about >= 4 ? 'someone or somewhere in the scene' : 'something the scene holds'} (recorded at turn ${fact.added.turn})`;
    if (!out.fits(factLine(world, fact), { id: `fact:${fact.id}`, why })) break;
    included += 1;
  }
  return included;
}
