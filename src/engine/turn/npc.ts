// The NPC brain behind `query_npc_intent`: the Director names the characters present; each is scored by
// the credit of its npc templates (template plus tags, as in the original), those at or above the
// threshold are kept (best first, at most the batch size), and one NPC model call answers for all of them
// with a checked structured output. The NPC model sees only `npc_visibility` state, never private fields.
//
// A template without `credit` counts as meeting the threshold on its own, so cartridges written without
// credits (generic-rpg) still get their characters voiced.

import { sanitizeForPrompt } from '../../core/text-policy.ts';
import type { ChatModel, ModelResponse, ToolSpec } from '../../adapters/llm/index.ts';
import { type CompiledRules, npcVisibleState } from '../../core/yare/index.ts';
import { checkArgs } from './args.ts';
import type { TurnContext } from './context.ts';
import { directorTextFor, type Reader, scopedSection } from './director-text.ts';
import { npcLoreItems } from './lore-sections.ts';
import {
  groupByKnowledge,
  knowledgeSection,
  type NpcView,
  npcView,
  witnessedHistory,
  witnessedLore,
} from './npc-knowledge.ts';
import { MAX_NPC_FIELD_CHARS, MAX_NPC_HISTORY_TURNS, MAX_PRESENT_NPCS } from './limits.ts';
import { type PromptSection, assemblePrompt, block, historyItems, json, messagesText } from './prompts.ts';
import { type ToolOutcome, toolError, toolOk } from './tools.ts';
import type { StoryMessage } from './types.ts';

export interface NpcPresentation {
  readonly id: string;
  readonly template?: string;
  readonly tags?: readonly string[];
}

export interface NpcIntent {
  readonly npc_id: string;
  readonly dialogue: string;
  readonly action_intent: string;
  readonly internal_monologue: string;
}

export interface SelectedNpc {
  readonly id: string;
  readonly score: number;
  readonly profile: string;
}

/** Story messages the NPC brain remembers when the Director does not say. */
export const DEFAULT_NPC_HISTORY_TURNS = 4;
const INTENTS_TOOL = 'npc_intents';

/** The original's credit scoring, threshold and batch size. */
export function selectNpcs(rules: CompiledRules, present: readonly NpcPresentation[]): SelectedNpc[] {
  const { npcMinCreditThreshold: threshold, maxBatchedNpcs: batch } = rules.engineSettings;
  const scored: SelectedNpc[] = [];
  for (const npc of present) {
    // A bare id that names a `type: name` template is taken as that template.
    const template = npc.template ?? (rules.npcTemplates.get(npc.id)?.type === 'name' ? npc.id : undefined);
    let score = 0;
    const descriptions: string[] = [];
    for (const key of new Set([...(template === undefined ? [] : [template]), ...(npc.tags ?? [])])) {
      const found = rules.npcTemplates.get(key);
      if (found === undefined) continue;
      score += found.credit ?? threshold;
      descriptions.push(found.description);
    }
    if (score < threshold) continue;
    const profile = descriptions.length > 0 ? descriptions.join(' ') : `NPC id=${npc.id}`;
    scored.push({ id: npc.id, score, profile: `NPC: ${npc.id} | Profile: ${profile}` });
  }
  // Array.prototype.sort is stable: equal scores keep the Director's order.
  return scored.sort((a, b) => b.score - a.score).slice(0, batch);
}

const intentsSpec: ToolSpec = {
  name: INTENTS_TOOL,
  description: 'Report what each cast member intends to say and do.',
  inputSchema: {
    type: 'object',
    properties: {
      intents: {
        type: 'array',
        maxItems: MAX_PRESENT_NPCS,
        items: {
          type: 'object',
          properties: {
            npc_id: { type: 'string', maxLength: 100 },
            dialogue: { type: 'string', maxLength: MAX_NPC_FIELD_CHARS },
            action_intent: { type: 'string', maxLength: MAX_NPC_FIELD_CHARS },
            internal_monologue: { type: 'string', maxLength: MAX_NPC_FIELD_CHARS },
          },
          required: ['npc_id', 'dialogue', 'action_intent', 'internal_monologue'],
        },
      },
    },
    required: ['intents'],
  },
};

const NPC_ROLE = `You are an ensemble cast of actors, each playing one character of a role-playing game.
Rules:
- Declare intent only: what each character says and tries to do. Never decide outcomes; the rules do.
- Never speak or act for the player character.
- Stay in character; use only what your character could know from the situation below.
- Answer for every cast member, by their npc_id, with the ${INTENTS_TOOL} tool.`;

export interface NpcQueryArgs {
  readonly present_npcs: readonly NpcPresentation[];
  readonly scene_context: string;
  readonly history_turns?: number;
  readonly dm_directives?: string;
}

/** Runs one `query_npc_intent`; the outcome goes back to the Director as the tool result. */
export async function runNpcQuery(
  ctx: TurnContext,
  model: ChatModel,
  args: NpcQueryArgs,
  history: readonly StoryMessage[],
): Promise<ToolOutcome> {
  const max = ctx.limits.maxNpcQueries;
  if (ctx.npcQueries >= max) {
    return toolError(
      `Maximum NPC queries (${max}) reached for this turn (maxNpcQueries). Decide without them.`,
    );
  }
  const cast = selectNpcs(ctx.rules, args.present_npcs);
  if (cast.length === 0) {
    return toolOk(
      { intents: [], message: 'No qualifying NPCs: none of them has enough npc template credit.' },
      true,
    );
  }
  const turns = Math.min(Math.max(args.history_turns ?? DEFAULT_NPC_HISTORY_TURNS, 0), MAX_NPC_HISTORY_TURNS);
  ctx.npcQueries++;
  // Characters know only what they could know: NPCs that learned different things are played by different
  // calls, each shown only its group's facts, and the story and lore they witnessed (npc-knowledge.ts).
  const views = new Map(cast.map((c) => [c.id, npcView(ctx.ledger.world, c.id)]));
  const groups = groupByKnowledge(cast.map((c) => views.get(c.id)!));
  const intents: NpcIntent[] = [];
  for (const group of groups) {
    const ids = new Set(group.map((v) => v.id));
    const members = cast.filter((c) => ids.has(c.id));
    const answer = await askGroup(ctx, model, args, members, group, history, turns);
    if (!answer.ok) return answer.outcome;
    intents.push(...answer.intents);
  }
  return toolOk({ intents }, true);
}

/** The prompt sections of one group's NPC call: its cast, what it may see, and the Director's words. */
function groupSections(
  ctx: TurnContext,
  args: NpcQueryArgs,
  cast: readonly SelectedNpc[],
  group: readonly NpcView[],
  history: readonly StoryMessage[],
  turns: number,
): PromptSection[] {
  // The group's story text (lore, World Info, history, the Director's words) loses what it does not know.
  const reader: Reader = { kind: 'npc', entity: group[0]?.entity };
  const scoped = (section: PromptSection): PromptSection => scopedSection(ctx, reader, section);
  return [
    { id: 'role', kind: 'static', text: NPC_ROLE, required: true, why: 'how to play the cast' },
    {
      id: 'directives',
      kind: 'static',
      text: block('CARTRIDGE DIRECTIVES (obey)', ctx.cartridge.directives.npc ?? ''),
      required: true,
      maxTokens: 1_000,
      why: "the cartridge's npc directive",
    },
    {
      id: 'cast',
      kind: 'volatile',
      text: block('THE CAST', cast.map((c) => c.profile).join('\n')),
      required: true,
      why: `${cast.length} NPC(s) at or above the credit threshold`,
    },
    {
      id: 'state',
      kind: 'volatile',
      text: block('VISIBLE GAME STATE', json(npcVisibleState(ctx.state, ctx.rules.schema))),
      required: true,
      maxTokens: 1_000,
      why: 'state fields marked npc_visibility',
    },
    knowledgeSection(group),
    scoped(groupLoreSection(ctx, group)),
    scoped(groupHistorySection(ctx, group, turns === 0 ? [] : history.slice(-turns))),
    groupSceneSection(ctx, reader, args),
  ];
}

/** The lore the group may know: what is in play, and the story's words only when all of it is in the scene. */
function groupLoreSection(ctx: TurnContext, group: readonly NpcView[]): PromptSection {
  const lore = npcLoreItems(witnessedLore(ctx, group));
  return {
    id: 'lore',
    kind: 'volatile',
    text: block('WORLD LORE', lore.text),
    required: false,
    maxTokens: 800,
    why: group.some((v) => !v.present)
      ? "lore in play without the story's words (a cast member is not in the scene)"
      : 'lore the Director looked up, World Info activated and lore in play this turn',
    items: lore.items,
  };
}

/** The recent story messages the group witnessed. */
function groupHistorySection(
  ctx: TurnContext,
  group: readonly NpcView[],
  recent: readonly StoryMessage[],
): PromptSection {
  const witnessed = witnessedHistory(ctx, group, recent);
  return {
    id: 'history',
    kind: 'volatile',
    text: block('RECENT HISTORY', messagesText(witnessed.messages)),
    items: historyItems(witnessed.messages),
    required: false,
    maxTokens: 800,
    keep: 'end',
    why: `the last ${witnessed.messages.length} story message(s) the cast witnessed: ${witnessed.why}`,
  };
}

/** The Director's words, with what it copied of a value or a fact this group may not know hidden. */
function groupSceneSection(ctx: TurnContext, reader: Reader, args: NpcQueryArgs): PromptSection {
  const words = [
    args.scene_context,
    args.dm_directives ? `Director's private guidance: ${args.dm_directives}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return {
    id: 'scene',
    kind: 'volatile',
    text: block('THE SITUATION', directorTextFor(ctx, reader, words)),
    required: true,
    why: "the Director's scene context and guidance",
  };
}

/** One NPC model call for a group of the cast that knows the same. */
async function askGroup(
  ctx: TurnContext,
  model: ChatModel,
  args: NpcQueryArgs,
  cast: readonly SelectedNpc[],
  group: readonly NpcView[],
  history: readonly StoryMessage[],
  turns: number,
): Promise<{ ok: true; intents: NpcIntent[] } | { ok: false; outcome: ToolOutcome }> {
  const sections = groupSections(ctx, args, cast, group, history, turns);
  const prompt = ctx.budget.measure({ kind: 'prompt', role: 'npc' }, () =>
    assemblePrompt(sections, ctx.limits.npcPromptTokens),
  );
  ctx.prompts.push({
    role: 'npc',
    call: ctx.prompts.filter((p) => p.role === 'npc').length + 1,
    sections: prompt.sections,
    tokens: prompt.tokens,
    budget: prompt.budget,
  });
  const response = await model.generate({
    system: prompt.system,
    messages: [{ role: 'user', content: `Give the intents of: ${cast.map((c) => c.id).join(', ')}.` }],
    tools: [intentsSpec],
    toolChoice: { tool: INTENTS_TOOL },
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  ctx.modelIds.npc = response.modelId;
  return castIntents(response, cast);
}

/** The answer's intents of the cast's members, sanitised; an answer that is not the intents tool's is an error. */
function castIntents(
  response: ModelResponse,
  cast: readonly SelectedNpc[],
): { ok: true; intents: NpcIntent[] } | { ok: false; outcome: ToolOutcome } {
  const raw = response.toolCalls.find((c) => c.name === INTENTS_TOOL)?.args ?? parseJsonText(response.text);
  const checked = raw === undefined ? undefined : checkArgs(intentsSpec.inputSchema, raw);
  if (checked === undefined || !checked.ok) {
    const why = checked === undefined ? 'no structured answer' : checked.message;
    return {
      ok: false,
      outcome: toolError(
        `The NPC brain gave an invalid answer (${why}). Decide the NPCs' reactions yourself.`,
      ),
    };
  }
  const known = new Set(cast.map((c) => c.id));
  const intents: NpcIntent[] = (checked.value as { intents: NpcIntent[] }).intents
    .filter((intent) => known.has(intent.npc_id))
    // NPC lines are model prose bound for the Director's prompt: through the one sanitiser.
    .map(({ npc_id, dialogue, action_intent, internal_monologue }) => ({
      npc_id,
      dialogue: sanitizeForPrompt(dialogue),
      action_intent: sanitizeForPrompt(action_intent),
      internal_monologue: sanitizeForPrompt(internal_monologue),
    }));
  return { ok: true, intents };
}

/** A JSON object in a text answer (models without tool support), fences allowed. */
function parseJsonText(text: string): unknown {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/```$/, '')
    .trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}
