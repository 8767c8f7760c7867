// Characters know only what they could know (docs/ledger.md, "Who knows what"). For each NPC the brain plays:
// the private facts it learned, whether it is in the scene, and from that what of the story it may be shown.
// The cast is split into groups of NPCs that know the same, each group played by its own call, so no NPC's
// prompt holds what another learned. An NPC absent from the scene is shown no story messages and no lore
// the story's words selected (a keyword lookup or a keyword-matched World Info entry could carry what was
// said where it was not): only the lore in play by its condition and World Info in play without a key.

import { factsKnownBy, type FactRecord, lookup, type World } from '../../core/ledger/index.ts';
import { estimateTokens } from '../../core/tokens.ts';
import type { TurnContext } from './context.ts';
import type { LoreInTurn } from './context.ts';
import { block, type PromptSection, type SectionItem } from './prompts.ts';
import type { StoryMessage } from './types.ts';

/** Private facts shown per NPC, newest first, and current facts looked through for them. */
export const MAX_NPC_KNOWN_FACTS = 20;
const MAX_NPC_FACTS_SCANNED = 5_000;

export interface NpcView {
  readonly id: string;
  /** The NPC's ledger entity (its id as a key), if the ledger tracks it. */
  readonly entity?: string;
  /** In the ledger's scene, or the ledger tracks no scene or no such entity (nothing to withhold by). */
  readonly present: boolean;
  /** What it learned that is not public, newest first. */
  readonly facts: readonly FactRecord[];
}

export function npcView(world: World, id: string): NpcView {
  const entity = lookup(world.entities, id) === undefined ? undefined : id;
  if (entity === undefined) return { id, present: true, facts: [] };
  const present = world.scene === null || world.scene.present.includes(entity);
  const facts = factsKnownBy(world, entity, {
    limit: MAX_NPC_KNOWN_FACTS,
    scan: MAX_NPC_FACTS_SCANNED,
    privateOnly: true,
  });
  return { id, entity, present, facts };
}

/** NPCs that know the same (presence and private facts) share a call; order kept. */
export function groupByKnowledge(views: readonly NpcView[]): NpcView[][] {
  const groups = new Map<string, NpcView[]>();
  for (const view of views) {
    const signature = `${view.present ? 'p' : 'a'}:${view.facts.map((f) => f.id).join(',')}`;
    const group = groups.get(signature);
    if (group === undefined) groups.set(signature, [view]);
    else group.push(view);
  }
  return [...groups.values()];
}

function factText(fact: FactRecord): string {
  const about = [fact.subject, fact.predicate, fact.object].filter((p) => p !== undefined).join(' ');
  return `- [${fact.id}] ${about}${fact.value === undefined ? '' : ` = ${JSON.stringify(fact.value)}`}`;
}

/** What the group's NPCs learned (the same for each of them), with a receipt per fact. */
export function knowledgeSection(group: readonly NpcView[]): PromptSection {
  const facts = group[0]?.facts ?? [];
  const who = group.map((v) => v.id).join(', ');
  const items: SectionItem[] = facts.map((f) => {
    const text = factText(f);
    return {
      id: `fact:${f.id}`,
      why: `${who} learned it (recorded at turn ${f.added.turn}, known to ${f.knownBy?.join(', ') ?? 'everyone'})`,
      text,
      tokens: estimateTokens(text),
    };
  });
  return {
    id: 'knowledge',
    kind: 'volatile',
    text: block(
      `WHAT ${who} KNOW${group.length === 1 ? 'S' : ''} (learned; others may not)`,
      items.map((i) => i.text).join('\n'),
    ),
    required: false,
    maxTokens: 600,
    why: `${facts.length} fact(s) ${who} learned`,
    items,
  };
}

/**
 * The story messages the group may be shown: none for an NPC absent from the scene; else the messages of
 * the turns since the scene was last set (the turns they were there for), within `messages`.
 */
export function witnessedHistory(
  ctx: TurnContext,
  group: readonly NpcView[],
  messages: readonly StoryMessage[],
): { messages: StoryMessage[]; why: string } {
  if (group.some((v) => !v.present)) return { messages: [], why: 'none: not in the scene' };
  const scene = ctx.ledger.world.scene;
  const tracked = group.some((v) => v.entity !== undefined);
  if (scene === null || !tracked) return { messages: [...messages], why: 'the recent story' };
  // Each turn adds two messages (the player's and the narration); the scene was set at `scene.set.turn`.
  const turns = Math.max(0, ctx.ledger.turn - scene.set.turn);
  const kept = messages.slice(Math.max(0, messages.length - 2 * turns));
  return { messages: kept, why: `the turns since the scene was set (turn ${scene.set.turn})` };
}

/** The lore the group may be shown: all of the turn's, or for an absent NPC only what no words selected. */
export function witnessedLore(ctx: TurnContext, group: readonly NpcView[]): ReadonlyMap<string, LoreInTurn> {
  if (!group.some((v) => !v.present)) return ctx.lore;
  const out = new Map<string, LoreInTurn>();
  for (const [id, piece] of ctx.lore) if (!piece.byWords) out.set(id, piece);
  return out;
}
