// The compact world summary the Director and Narrator prompts get: the scene first, who is present (status,
// conditions, what they carry), open threads, then the facts that matter now, ranked by how closely they
// touch the scene. It fits a token budget and accounts for what it left out, so the prompt trace can say
// why something was or was not shown.

import { estimateTokens } from '../tokens.ts';
import type { LedgerScalar } from './events.ts';
import { DEFAULT_SUMMARY_TOKEN_BUDGET } from './limits.ts';
import { summaryIndexOf } from './summary-index.ts';
import { type EntityRecord, type FactRecord, getFact, lookup, type World } from './world.ts';

export interface SummaryCounts {
  readonly scene: number;
  readonly present: number;
  readonly threads: number;
  readonly facts: number;
}

export interface WorldSummary {
  readonly text: string;
  readonly tokens: number;
  readonly budget: number;
  readonly included: SummaryCounts;
  readonly dropped: SummaryCounts;
}

export interface SummaryOptions {
  readonly tokenBudget?: number;
}

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
  const lines: string[] = [];
  let used = 0;
  const fits = (line: string): boolean => {
    const cost = estimateTokens(`${line}\n`);
    if (used + cost > budget) return false;
    lines.push(line);
    used += cost;
    return true;
  };

  // Everything below reads the world through its summary index, so the cost is what the summary shows
  // (the scene's entities and facts, the open threads, the newest facts up to the budget), not the world.
  const index = summaryIndexOf(world);
  const scene = world.scene;
  const present = scene?.present.filter((k) => lookup(world.entities, k) !== undefined) ?? [];
  const carriedBy = (key: string): string[] => [...(index.carried.get(key) ?? [])].sort();

  let sceneIncluded = 0;
  if (scene) {
    const where = scene.location === undefined ? '' : ` at ${label(world, scene.location)}`;
    const what = scene.summary === undefined ? '' : ` ${JSON.stringify(scene.summary)}`;
    if (fits(`Scene (turn ${scene.set.turn})${where}:${what}`)) sceneIncluded = 1;
  }

  let presentIncluded = 0;
  if (sceneIncluded && present.length > 0 && fits('Present:')) {
    for (const key of present) {
      if (!fits(entityLine(world, lookup(world.entities, key)!, carriedBy(key)))) break;
      presentIncluded += 1;
    }
  }

  const open = [...index.openThreads.values()].sort(
    (a, b) => b.opened.turn - a.opened.turn || (a.key < b.key ? -1 : 1),
  );
  let threadsIncluded = 0;
  if (open.length > 0 && fits('Open threads:')) {
    for (const t of open) {
      if (!fits(`- [${t.key}] ${t.title}`)) break;
      threadsIncluded += 1;
    }
  }

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
  const factCount = index.current.size;
  let factsIncluded = 0;
  if (factCount > 0 && fits('Facts:')) {
    for (const fact of ranked()) {
      if (!fits(factLine(world, fact))) break;
      factsIncluded += 1;
    }
  }

  const text = lines.join('\n');
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
  };
}
