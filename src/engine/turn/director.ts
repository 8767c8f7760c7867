// The Director: a tool loop whose text is never streamed to the player. An ordinary turn is ONE Director call: the Director returns
// its rule-event calls and its scene directives together (text beside the calls, or `finish_turn`); the
// engine runs the events and goes straight to the Narrator, who also gets the events' notes, so the
// directives never have to guess a dice outcome. Many models answer with tool calls and no text: a round
// whose calls all succeeded and were all rule events (or time, or finish_turn) still goes straight to the
// Narrator, who narrates from the notes, so an ordinary turn is two sequential model calls whatever the
// model's habit. The Director takes another round only when it asked for something it must read (a
// lore or NPC query) or when a call failed (to repair it). At most `maxToolRounds` Director calls per
// turn; after the last one the turn goes on with what it has.

import { tableSection } from './table-prompt.ts';
import { withTableActor } from './table-actor.ts';
import { withKnownValues } from './known-values.ts';
import {
  type ChatMessage,
  type JsonSchema,
  ModelError,
  type ModelResponse,
  type ModelSet,
  type ModelStreamPart,
  type ToolCall,
} from '../../adapters/llm/index.ts';
import { estimateTokens } from '../../core/tokens.ts';
import type { TurnContext } from './context.ts';
import { parseRawArgs } from './args.ts';
import { echoableCalls } from './echo.ts';
import { TurnError } from './errors.ts';
import { currentGameTime } from './game-time.ts';
import { worldSection } from './ledger/prompt.ts';
import { directorLoreSection } from './lore-sections.ts';
import { MAX_DIRECTIVES_CHARS, MAX_TOOL_CALLS_PER_ROUND, MAX_TOOL_CALLS_PER_TURN } from './limits.ts';
import { type NpcQueryArgs, runNpcQuery } from './npc.ts';
import {
  type PromptSection,
  assemblePrompt,
  block,
  cacheFriendly,
  historyItems,
  json,
  messagesText,
  olderMessages,
  personaSection,
  toChatMessages,
} from './prompts.ts';
import {
  type DirectorTool,
  type DirectorToolSet,
  LORE_LOOKUP,
  SEED_LORE_LOOKUP,
  type ToolOutcome,
  checkedArgs,
  type RefusedArgs,
  refusedArgs,
  directorTools,
  runAdvanceTime,
  runEventTool,
  runFinishTurn,
  runLoreLookup,
  toolError,
} from './tools.ts';
import { endsInRepetition, textToolCalls } from './text-calls.ts';
import type { DirectorStop, StoryMessage, TurnEvent } from './types.ts';

export interface DirectorOutcome {
  readonly directives: string;
  readonly stop: DirectorStop;
}

/** Estimated tokens of the lore looked up for the player's words before the first Director call. */
export const DIRECTOR_AUTO_LORE_TOKENS = 600;
/** Cap on the game-state section of the Director prompt. */
const DIRECTOR_STATE_TOKENS = 2_500;
/** Cap on the recent-messages section of the Director prompt. */
export const DIRECTOR_HISTORY_TOKENS = 2_000;

function directorRole(ctx: TurnContext, tools: DirectorToolSet): string {
  const time =
    ctx.clock === 'engine'
      ? '\n6. Give each rule event an engine_time_delta (ISO-8601 like PT15M) for the in-game time it takes, or call advance_game_time.'
      : '';
  const npc = tools.byName.has('query_npc_intent')
    ? ` and at most ${ctx.limits.maxNpcQueries} query_npc_intent calls`
    : '';
  return `You are the Director of a text role-playing game. You do not write the story: you decide what happens and instruct the Narrator, who writes the prose.

How to run a turn:
1. Read the player's latest message as an intent or an attempt, never as an outcome. The player cannot declare results or change the game state by saying so ("I find a sword", "set my gold to 9999"); only rule events change the game.
2. Resolve everything mechanical by calling rule-event tools. Never do arithmetic or roll dice yourself.
3. In the SAME response as your tool calls, write your scene directives as text (or call finish_turn). The engine runs the events and gives their notes (the exact outcomes) to the Narrator, so do not guess outcomes that depend on dice. Without directives the Narrator works from the notes alone.
4. You see tool results only for lore_lookup and query_npc_intent (they always come back to you first) and for a call that failed; after successful rule events the turn goes to the Narrator.
5. A tool error means nothing changed: correct the call or choose another action.${time}
Limits: at most ${ctx.limits.maxToolRounds} responses with tool calls this turn${npc}.

Scene directives: plain text under these headings, short; name the player character instead of saying "you"; never reveal hidden numbers.
### 1. Outcomes (what happens, as physical facts)
### 2. Dialogue (exact lines characters speak, if any)
### 3. Scene (environment and character states worth showing)
### 4. Guardrails (what must NOT happen or be revealed)
### 5. Hints (optional)
### 6. Pacing and style (optional)`;
}

function directorSections(
  ctx: TurnContext,
  tools: DirectorToolSet,
  tickNotes: readonly string[],
  lore: PromptSection,
  history: readonly StoryMessage[],
  turnStartTime: string | undefined,
): PromptSection[] {
  const state = block('FULL GAME STATE (private fields included; never reveal them)', json(ctx.state));
  return [
    ...directorStaticSections(ctx, tools),
    personaSection(ctx.persona),
    ...tableSection(ctx.table, 'director'),
    {
      id: 'state',
      kind: 'volatile',
      text: state,
      required: true,
      maxTokens: DIRECTOR_STATE_TOKENS,
      why: 'the whole state, so the Director can choose events',
    },
    {
      id: 'game_time',
      kind: 'volatile',
      text: block('IN-GAME TIME', directorTimeLine(ctx, state, turnStartTime)),
      required: false,
      why: 'the engine keeps state.game_time',
    },
    // At a shared table, the world as the acting character knows it: no fact another character alone saw.
    worldSection(ctx, ctx.table === undefined ? undefined : ctx.playerEntity),
    {
      id: 'notes',
      kind: 'volatile',
      text: block('ENGINE NOTES SO FAR THIS TURN', tickNotes.join('\n')),
      required: true,
      maxTokens: 1_000,
      why: 'notes of the cycle-tick events',
    },
    lore,
    directorHistorySection(ctx, history),
  ];
}

/** The Director prompt's static head: its role, the cartridge's directive for it, and the tools. */
function directorStaticSections(ctx: TurnContext, tools: DirectorToolSet): PromptSection[] {
  return [
    {
      id: 'role',
      kind: 'static',
      text: directorRole(ctx, tools),
      required: true,
      why: 'the Director role, workflow and output schema',
    },
    {
      id: 'directives',
      kind: 'static',
      text: block('CARTRIDGE DIRECTIVES (obey)', ctx.cartridge.directives.director ?? ''),
      required: true,
      maxTokens: 1_000,
      why: "the cartridge's director directive",
    },
    {
      id: 'tools',
      kind: 'static',
      text: json(tools.specs),
      required: true,
      carrier: 'tools',
      why: `${tools.specs.length} tool definitions, sent as tools`,
    },
  ];
}

/**
 * The in-game time line. Until time moves this turn, state.game_time (in the state) is all there is to
 * say about the clock, so the line is left out while the state is shown whole: the volatile final
 * message, which a prefix cache cannot reuse from turn to turn, stays short.
 */
function directorTimeLine(ctx: TurnContext, state: string, turnStartTime: string | undefined): string {
  const now = currentGameTime(ctx.state, ctx.clock);
  if (now === undefined) return '';
  const moved = ctx.timeSeconds !== 0 || (turnStartTime !== undefined && turnStartTime !== now);
  if (moved)
    return `state.game_time = ${JSON.stringify(now)} (turn started at ${JSON.stringify(turnStartTime ?? now)}); time accepted so far this turn: ${ctx.timeSeconds} seconds.`;
  return estimateTokens(state) > DIRECTOR_STATE_TOKENS
    ? `state.game_time = ${JSON.stringify(now)}; no time accepted yet this turn.`
    : '';
}

/** The recent story, sent as messages. */
function directorHistorySection(ctx: TurnContext, history: readonly StoryMessage[]): PromptSection {
  return {
    id: 'history',
    kind: 'volatile',
    text: messagesText(history),
    required: false,
    carrier: 'messages',
    why: `the last ${history.length} story message(s), sent as messages`,
    items: historyItems(
      history,
      olderMessages(
        ctx.story,
        history,
        `${ctx.limits.historyMessages} messages within ${DIRECTOR_HISTORY_TOKENS} tokens`,
      ),
    ),
  };
}

export async function* runDirector(
  ctx: TurnContext,
  models: ModelSet,
  inputText: string,
  history: readonly StoryMessage[],
  tickNotes: readonly string[],
): AsyncGenerator<TurnEvent, DirectorOutcome> {
  const tools = withTableActor(
    withKnownValues(directorTools(ctx.cartridge), ctx.state, ctx.ledger.world),
    ctx.table,
  );
  ctx.warnings.push(...tools.warnings);
  const talk: DirectorTalk = {
    ctx,
    models,
    tools,
    inputText,
    history,
    tickNotes,
    turnStartTime: currentGameTime(ctx.state, ctx.clock),
    lore: directorLoreSection(ctx, inputText, DIRECTOR_AUTO_LORE_TOKENS),
    decoding: models.director.decoding ?? 'off',
    exchange: [],
    callsRun: 0,
    repairedBroken: false,
  };
  const outcome = yield* directorRounds(talk);
  return finishedDirectives(ctx, outcome);
}

/** The Director's rounds, until it has nothing to read or repair, or `maxToolRounds` are used. */
async function* directorRounds(talk: DirectorTalk): AsyncGenerator<TurnEvent, DirectorOutcome> {
  const { ctx } = talk;
  let directives = '';
  for (let round = 1; round <= ctx.limits.maxToolRounds; round++) {
    ctx.throwIfAborted();
    const answer = await askDirector(talk, round);
    if (answer.calls.length === 0) {
      // An answer cut off by the token limit, or stuck in a loop, is asked for again once; a second one
      // hands the turn back to the player, who is asked to say it again.
      if (repairedBrokenAnswer(talk, answer.response, round)) continue;
      return { directives: answer.text.trim() || directives, stop: 'directives' };
    }
    const ran = yield* runRoundCalls(talk, answer, round);
    if (ran === undefined) break;
    const given = (ctx.finishDirectives ?? answer.text).trim();
    if (given !== '') directives = given;
    // Nothing to read and nothing to repair: another Director call would only add latency.
    if (!ran.failed && !ran.informs) return { directives, stop: directives === '' ? 'events' : 'directives' };
  }
  return { directives, stop: 'round-limit' };
}

/** The outcome with its directives bounded by MAX_DIRECTIVES_CHARS, and warnings for what was cut or used up. */
function finishedDirectives(ctx: TurnContext, outcome: DirectorOutcome): DirectorOutcome {
  let { directives } = outcome;
  if (directives.length > MAX_DIRECTIVES_CHARS) {
    ctx.warnings.push(
      `the Director's directives were cut to ${MAX_DIRECTIVES_CHARS} characters (MAX_DIRECTIVES_CHARS)`,
    );
    directives = directives.slice(0, MAX_DIRECTIVES_CHARS);
  }
  if (outcome.stop === 'round-limit')
    ctx.warnings.push(`the Director used all ${ctx.limits.maxToolRounds} rounds (maxToolRounds)`);
  return { directives, stop: outcome.stop };
}

/** One Director conversation: what each round's prompt is made of, and the exchange so far. */
interface DirectorTalk {
  readonly ctx: TurnContext;
  readonly models: ModelSet;
  readonly tools: ReturnType<typeof withTableActor>;
  readonly inputText: string;
  readonly history: readonly StoryMessage[];
  readonly tickNotes: readonly string[];
  readonly turnStartTime: ReturnType<typeof currentGameTime>;
  readonly lore: ReturnType<typeof directorLoreSection>;
  readonly decoding: NonNullable<ModelSet['director']['decoding']>;
  /** The rounds' answers and results, appended after the history. */
  readonly exchange: ChatMessage[];
  callsRun: number;
  repairedBroken: boolean;
}

/** A round's answer: its calls (native, in a schema envelope, or written in the text) and its text. */
interface DirectorAnswer {
  readonly response: Awaited<ReturnType<typeof finalResponse>>;
  readonly calls: readonly ToolCall[];
  readonly text: string;
  readonly fromText: boolean;
}

async function askDirector(talk: DirectorTalk, round: number): Promise<DirectorAnswer> {
  const { ctx, tools, history, decoding } = talk;
  const prompt = ctx.budget.measure({ kind: 'prompt', role: 'director' }, () =>
    assemblePrompt(
      directorSections(ctx, tools, talk.tickNotes, talk.lore, history, talk.turnStartTime),
      ctx.limits.directorPromptTokens,
    ),
  );
  ctx.prompts.push({
    role: 'director',
    call: round,
    sections: prompt.sections,
    tokens: prompt.tokens,
    budget: prompt.budget,
  });
  const shownHistory = prompt.texts.has('history') ? toChatMessages(history) : [];
  // Stable system prompt, append-only history, then the volatile context with the player's words.
  const call = cacheFriendly(prompt, shownHistory, talk.inputText);
  const response = await finalResponse(
    talk.models.director.stream({
      system: call.system,
      messages: [...call.messages, ...talk.exchange],
      ...(decoding === 'json-schema'
        ? { responseSchema: { name: 'director_turn', schema: callsSchema(tools) } }
        : { tools: tools.specs, toolChoice: 'auto' as const }),
      ...(decoding === 'strict-tools' ? { strictTools: true } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    }),
  );
  ctx.modelIds.director = response.modelId;
  const envelope = decoding === 'json-schema' ? schemaAnswer(response.text, round) : undefined;
  // A model without tool calling may write its calls in the text: they are read from there (text-calls.ts)
  // and go through the same checks as native calls.
  const written =
    response.toolCalls.length === 0 && envelope === undefined
      ? textToolCalls(response.text, toolNames(tools), round)
      : undefined;
  const fromText = written !== undefined && written.calls.length > 0;
  return {
    response,
    calls: envelope?.calls ?? (fromText ? written.calls : response.toolCalls),
    text: envelope?.directives ?? (fromText ? written.rest : response.text),
    fromText,
  };
}

/**
 * A callless answer cut off or looping is asked for again once (true: the round is repeated); a second
 * such answer, or one in the last round, ends the turn with LOST_THREAD. False for an ordinary answer.
 */
function repairedBrokenAnswer(
  talk: DirectorTalk,
  response: DirectorAnswer['response'],
  round: number,
): boolean {
  const { ctx } = talk;
  const broken = brokenAnswer(response);
  if (broken === undefined) return false;
  ctx.warnings.push(`the Director's answer in round ${round} ${broken}`);
  if (talk.repairedBroken || round === ctx.limits.maxToolRounds) throw new TurnError('reply', LOST_THREAD);
  talk.repairedBroken = true;
  talk.exchange.push({ role: 'assistant', content: response.text.slice(0, BROKEN_ECHO_CHARS) });
  talk.exchange.push({ role: 'user', content: `[engine] Your last answer ${broken}. ${BROKEN_REPAIR}` });
  return true;
}

/**
 * Runs a round's calls, each recorded and echoed; undefined when none may run. Model output is bounded
 * before anything of it is kept: at most MAX_TOOL_CALLS_PER_ROUND calls of a response and
 * MAX_TOOL_CALLS_PER_TURN of the turn run; the rest are dropped unrun, unrecorded and unechoed (a response
 * of 1,000 calls costs what one of 8 does), and the Director is told so.
 */
async function* runRoundCalls(
  talk: DirectorTalk,
  answer: DirectorAnswer,
  round: number,
): AsyncGenerator<TurnEvent, { failed: boolean; informs: boolean } | undefined> {
  const { ctx, decoding } = talk;
  const room = Math.max(0, Math.min(MAX_TOOL_CALLS_PER_ROUND, MAX_TOOL_CALLS_PER_TURN - talk.callsRun));
  const calls = answer.calls.slice(0, room);
  const dropped = answer.calls.length - calls.length;
  if (dropped > 0) {
    ctx.warnings.push(
      `the Director sent ${answer.calls.length} tool calls in round ${round}; ${dropped} were dropped (MAX_TOOL_CALLS_PER_ROUND = ${MAX_TOOL_CALLS_PER_ROUND}, MAX_TOOL_CALLS_PER_TURN = ${MAX_TOOL_CALLS_PER_TURN})`,
    );
  }
  if (calls.length === 0) return undefined;
  // Without tools in the request (json-schema decoding) the exchange is plain messages: the answer as
  // written, then each result as an engine message.
  if (decoding === 'json-schema') talk.exchange.push({ role: 'assistant', content: answer.response.text });
  else talk.exchange.push({ role: 'assistant', content: answer.text, toolCalls: echoableCalls(calls) });
  ctx.finishDirectives = undefined;
  let failed = false;
  let informs = false;
  for (const [index, call] of calls.entries()) {
    ctx.throwIfAborted();
    talk.callsRun += 1;
    const outcome = yield* runDirectorCall(talk, call, round, {
      fromText: answer.fromText,
      droppedNote:
        dropped > 0 && index === calls.length - 1
          ? `${dropped} more tool call(s) of this response were dropped unrun: at most ${MAX_TOOL_CALLS_PER_ROUND} run per response and ${MAX_TOOL_CALLS_PER_TURN} per turn.`
          : undefined,
    });
    failed ||= !outcome.ok;
    informs ||= outcome.informs === true;
  }
  return { failed, informs };
}

/** One call run, recorded in the turn's tool log, echoed to the Director and announced to the client. */
async function* runDirectorCall(
  talk: DirectorTalk,
  call: ToolCall,
  round: number,
  how: { fromText: boolean; droppedNote: string | undefined },
): AsyncGenerator<TurnEvent, Awaited<ReturnType<typeof runTool>>> {
  const { ctx } = talk;
  const started = ctx.now();
  const ran = await runTool(ctx, talk.tools, talk.models, call, talk.history);
  const outcome = how.droppedNote === undefined ? ran : withNote(ran, how.droppedNote);
  // Refused arguments are kept as a reason and a hash, never raw; accepted ones are within
  // MAX_TOOL_ARGS_CHARS and MAX_TOOL_ARGS_DEPTH.
  const refused = ran.refused;
  const name = call.name.length > 64 ? `${call.name.slice(0, 64)}…` : call.name;
  yield { type: 'tool_call', round, id: call.id, name, args: refused ? null : (call.args ?? null) };
  ctx.tools.push({
    round,
    id: call.id,
    name,
    args: refused ? null : (call.args ?? null),
    rawArgs: refused ? '' : call.rawArgs,
    ...(refused ? { refused } : {}),
    ok: outcome.ok,
    content: outcome.content,
    durationMs: ctx.now() - started,
    ...(how.fromText ? { fromText: true as const } : {}),
  });
  talk.exchange.push(
    talk.decoding === 'json-schema'
      ? { role: 'user', content: `[engine] result of ${name}: ${outcome.content}` }
      : { role: 'tool', toolCallId: call.id, toolName: call.name, content: outcome.content },
  );
  yield { type: 'tool_result', round, id: call.id, name, ok: outcome.ok, content: outcome.content };
  return outcome;
}

/** Sent to the player when the Director twice answered with a cut-off or looping answer. */
export const LOST_THREAD =
  'The game master lost the thread there. Could you say what you do again, in other words?';
const BROKEN_REPAIR =
  'Answer again, briefly: the tool call(s) for the rule events, with short arguments, then at most a few lines of directives.';
/** How much of a broken answer is echoed back in the repair round. */
const BROKEN_ECHO_CHARS = 500;

/** Why an answer with no calls is broken (cut off by the token limit, or looping), or undefined. */
function brokenAnswer(response: ModelResponse): string | undefined {
  if (response.finishReason === 'length') return 'was cut off by the token limit before a complete tool call';
  if (endsInRepetition(response.text)) return 'repeated itself in a loop';
  return undefined;
}

const callsSchemas = new WeakMap<DirectorToolSet, JsonSchema>();
/**
 * The answer's JSON Schema under `json-schema` decoding: the calls (each one of the offered tools with its
 * own argument schema) and the directives, both bounded, so a grammar-constrained model can only write
 * calls the engine offers.
 */
export function callsSchema(tools: DirectorToolSet): JsonSchema {
  let schema = callsSchemas.get(tools);
  if (schema === undefined) {
    schema = {
      type: 'object',
      properties: {
        calls: {
          type: 'array',
          maxItems: MAX_TOOL_CALLS_PER_ROUND,
          items: {
            anyOf: tools.specs.map((spec) => ({
              type: 'object',
              properties: { name: { type: 'string', enum: [spec.name] }, arguments: spec.inputSchema },
              required: ['name', 'arguments'],
              additionalProperties: false,
            })),
          },
        },
        directives: { type: 'string', maxLength: MAX_DIRECTIVES_CHARS },
      },
      required: ['calls', 'directives'],
      additionalProperties: false,
    };
    callsSchemas.set(tools, schema);
  }
  return schema;
}

/** The calls and directives of a `json-schema` answer, or undefined when it is not one (then read as text). */
function schemaAnswer(text: string, round: number): { calls: ToolCall[]; directives: string } | undefined {
  const parsed = parseRawArgs(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const value = parsed.value as { calls?: unknown; directives?: unknown };
  if (!Array.isArray(value.calls)) return undefined;
  const calls: ToolCall[] = [];
  for (const item of value.calls.slice(0, MAX_TOOL_CALLS_PER_TURN)) {
    const entry = item as { name?: unknown; arguments?: unknown } | null;
    if (typeof entry?.name !== 'string') continue;
    const args = entry.arguments ?? {};
    calls.push({
      id: `schema_${round}_${calls.length + 1}`,
      name: entry.name,
      args,
      rawArgs: JSON.stringify(args),
    });
  }
  return { calls, directives: typeof value.directives === 'string' ? value.directives : '' };
}

const toolNameSets = new WeakMap<DirectorToolSet, ReadonlySet<string>>();
function toolNames(tools: DirectorToolSet): ReadonlySet<string> {
  let names = toolNameSets.get(tools);
  if (names === undefined) {
    names = new Set(tools.byName.keys());
    toolNameSets.set(tools, names);
  }
  return names;
}

/**
 * The seed's name for one of the engine's tools, which prompts written for the original still use:
 * `multi_lore_lookup(queries)` is `lore_lookup(queries)`. Accepted, never offered; a cartridge event of
 * that name is found first, by its own name.
 */
function seedToolAlias(tools: DirectorToolSet, name: string): DirectorTool | undefined {
  return name === SEED_LORE_LOOKUP ? tools.byName.get(LORE_LOOKUP) : undefined;
}

/** A tool's outcome, with why its arguments were refused when they were. */
type RanTool = ToolOutcome & { refused?: RefusedArgs };

/** The tool result with a note for the Director appended on a line of its own, after the JSON. */
function withNote(outcome: RanTool, note: string): RanTool {
  return { ...outcome, content: `${outcome.content}\n[engine] ${note}` };
}

async function runTool(
  ctx: TurnContext,
  tools: DirectorToolSet,
  models: ModelSet,
  call: ToolCall,
  history: readonly StoryMessage[],
): Promise<RanTool> {
  const tool = tools.byName.get(call.name) ?? seedToolAlias(tools, call.name);
  if (tool === undefined) {
    const message = `There is no tool named ${JSON.stringify(call.name.slice(0, 64))}. Use only the tools you were given.`;
    return { ...toolError(message), refused: refusedArgs(message, call.rawArgs) };
  }
  const checked = checkedArgs(tool, call, ctx.cartridge.intentInputs);
  if (!checked.ok)
    return { ...checked.outcome, refused: refusedArgs(checked.outcome.error ?? 'refused', call.rawArgs) };
  switch (tool.kind) {
    case 'event':
      return runEventTool(ctx, call.name, checked.args, 'director');
    case 'advance_game_time':
      return runAdvanceTime(ctx, checked.args);
    case 'lore_lookup':
      return runLoreLookup(ctx, checked.args);
    case 'query_npc_intent':
      return runNpcQuery(ctx, models.npc, checked.args as unknown as NpcQueryArgs, history);
    case 'finish_turn':
      return runFinishTurn(ctx, checked.args);
    default: {
      const never: never = tool;
      throw new Error(`unhandled tool kind ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The Director's whole response. It is streamed (and nothing of it shown) because a stream's timeout
 * bounds each silence rather than the whole answer, and servers such as Ollama only stream tool calls.
 */
async function finalResponse(parts: AsyncIterable<ModelStreamPart>): Promise<ModelResponse> {
  for await (const part of parts) if (part.type === 'finish') return part.response;
  throw new ModelError('bad-response', 'the Director model stream ended without a finish part');
}
