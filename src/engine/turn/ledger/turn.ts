// The Narrator's world changes, proposed after its prose through `record_world_changes({events[], time?})`.
// The batch is all-or-nothing: `checkRecordWorldChanges` validates it in order against a
// scratch copy of the world; nothing is committed here — the caller puts the resulting world in the record,
// and the record commits with the turn. A rejected batch goes back to the model with machine-readable errors
// for at most MAX_LEDGER_REPAIRS repairs (the events only, never the prose); after that the turn keeps its
// narration, changes nothing in the world, and says `unledgered` with the errors.
//
// Only the tool channel is read: events written inside the prose are ignored.

import {
  checkEndOfNarration,
  checkRecordWorldChanges,
  END_OF_NARRATION_TOOL,
  type LedgerEvent,
  RECORD_WORLD_CHANGES_TOOL,
  type Stamp,
  type TimeChange,
  type World,
} from '../../../core/ledger/index.ts';
import {
  type ChatMessage,
  type ChatModel,
  ModelError,
  type ModelResponse,
  type ToolCall,
} from '../../../adapters/llm/index.ts';
import { estimateTokens } from '../../../core/tokens.ts';
import type { TurnContext } from '../context.ts';
import { echoableCalls } from '../echo.ts';
import { currentGameTime } from '../game-time.ts';
import { extractionMessage, extractionSections, ledgerTool } from './prompt.ts';
import { planLedgerTime } from './time.ts';
import { MAX_LEDGER_AUDIT_CHARS, MAX_LEDGER_REPAIRS, MAX_TOOL_RESULT_CHARS } from '../limits.ts';
import { assemblePrompt, type SectionReport } from '../prompts.ts';
import type { LedgerAttempt, LedgerIssue, LedgerStatus } from '../types.ts';

/** A model call the ledger can continue from: its system prompt, messages and prompt report. */
export interface LedgerConversation {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly sections: readonly SectionReport[];
  readonly tokens: number;
  readonly budget: number;
}

/** What the first proposing call answered: its text (the prose, inline) and its tool calls. */
export interface LedgerAnswer {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
}

export interface LedgerOutcome {
  readonly status: LedgerStatus;
  /** The validated events (empty unless `applied`). */
  readonly events: readonly LedgerEvent[];
  /** The world after the batch at `at` (the world before, unless `applied`). */
  readonly world: World;
  readonly at: Stamp;
  readonly time: TimeChange | null;
  /** Seconds the accepted `time` adds to the turn's clock advance. */
  readonly seconds: number;
  readonly repairs: number;
  readonly errors: readonly LedgerIssue[];
  readonly attempts: readonly LedgerAttempt[];
}

type Checked =
  | {
      readonly ok: true;
      readonly events: readonly LedgerEvent[];
      readonly world: World;
      readonly time: TimeChange | null;
      readonly seconds: number;
    }
  | { readonly ok: false; readonly errors: readonly LedgerIssue[] };

function issue(code: LedgerIssue['code'], message: string): LedgerIssue {
  return { index: -1, code, message };
}

/** The stamp the batch is validated at: the ledger turn and the clock after the Director. */
function stampOf(ctx: TurnContext): Stamp {
  const gameTime = currentGameTime(ctx.state, ctx.clock);
  return gameTime === undefined ? { turn: ctx.ledger.turn } : { turn: ctx.ledger.turn, gameTime };
}

/** Checks one response's tool calls: exactly one `record_world_changes`, a valid batch, a usable time. */
function checkCalls(ctx: TurnContext, calls: readonly ToolCall[], at: Stamp): Checked {
  if (calls.length === 0) {
    return {
      ok: false,
      errors: [issue('LEDGER_NO_CALL', `no ${RECORD_WORLD_CHANGES_TOOL} call was made; call it once`)],
    };
  }
  if (calls.length > 1) {
    return {
      ok: false,
      errors: [
        issue(
          'LEDGER_MULTIPLE_CALLS',
          `${calls.length} tool calls in one answer; make ONE ${RECORD_WORLD_CHANGES_TOOL} call with every event of the turn`,
        ),
      ],
    };
  }
  const call = calls[0]!;
  // The seed's `end_of_narration` (it only moved the clock) is read as the record_world_changes call it is.
  const seedTool = call.name === END_OF_NARRATION_TOOL;
  if (call.name !== RECORD_WORLD_CHANGES_TOOL && !seedTool) {
    return {
      ok: false,
      errors: [
        issue(
          'LEDGER_UNKNOWN_TOOL',
          `there is no tool named ${JSON.stringify(call.name.slice(0, 64))}; the only tool is ${RECORD_WORLD_CHANGES_TOOL}`,
        ),
      ],
    };
  }
  // The raw text, not the provider's parse: duplicate keys and the byte cap are checked on what was sent.
  const check = seedTool ? checkEndOfNarration : checkRecordWorldChanges;
  const result = check(ctx.ledger.world, call.rawArgs, ctx.cartridge.ledger.policy, {
    at,
    source: 'narrator',
  });
  if (!result.ok) return { ok: false, errors: result.errors };
  const time = planLedgerTime(ctx, result.time);
  if (!time.ok) return { ok: false, errors: [time.error] };
  if (time.warning !== undefined) ctx.warnings.push(time.warning);
  return {
    ok: true,
    events: result.events,
    world: result.world,
    time: time.warning === undefined ? result.time : null,
    seconds: time.seconds,
  };
}

function auditCalls(calls: readonly ToolCall[]): LedgerAttempt['calls'] {
  return calls.map((call) => ({
    name: call.name.slice(0, 64),
    rawArgs:
      call.rawArgs.length <= MAX_LEDGER_AUDIT_CHARS
        ? call.rawArgs
        : `${call.rawArgs.slice(0, MAX_LEDGER_AUDIT_CHARS)}… [cut at ${MAX_LEDGER_AUDIT_CHARS} characters (MAX_LEDGER_AUDIT_CHARS)]`,
  }));
}

const REPAIR_INSTRUCTION = `Nothing was recorded: the whole batch was rejected. Call ${RECORD_WORLD_CHANGES_TOOL} again with the corrected batch (every event of this turn, absolute values, in order). Send only the tool call: do not write or change any prose.`;

/** The errors as the model gets them back: a fixed JSON shape; messages already quote model text safely. */
export function repairContent(errors: readonly LedgerIssue[]): string {
  let shown = errors.slice();
  for (;;) {
    const content = JSON.stringify({
      ok: false,
      errors: shown,
      ...(shown.length < errors.length ? { more_errors: errors.length - shown.length } : {}),
      instruction: REPAIR_INSTRUCTION,
    });
    if (content.length <= MAX_TOOL_RESULT_CHARS || shown.length <= 1) return content;
    shown = shown.slice(0, Math.ceil(shown.length / 2));
  }
}

/** The conversation continued with the rejected answer and its errors, ready for a repair call. */
function repairMessages(
  messages: readonly ChatMessage[],
  answer: LedgerAnswer,
  errors: readonly LedgerIssue[],
): ChatMessage[] {
  const content = repairContent(errors);
  if (answer.toolCalls.length === 0) {
    return [...messages, { role: 'assistant', content: answer.text }, { role: 'user', content }];
  }
  return [
    ...messages,
    { role: 'assistant', content: answer.text, toolCalls: echoableCalls(answer.toolCalls) },
    // Every call gets its result (providers require one per call id), each with the batch's errors.
    ...answer.toolCalls.map(
      (call): ChatMessage => ({ role: 'tool', toolCallId: call.id, toolName: call.name, content }),
    ),
  ];
}

/** A provider failure of a ledger call leaves the turn unledgered; cancellation and spent scripts do not. */
function ledgerCallFailure(ctx: TurnContext, error: unknown): LedgerIssue {
  if (!(error instanceof ModelError) || error.kind === 'aborted' || error.kind === 'script-exhausted') {
    throw error;
  }
  ctx.throwIfAborted();
  ctx.warnings.push(`a world-ledger call failed (${error.kind}); the turn is unledgered`);
  return issue('LEDGER_MODEL_ERROR', `the ledger call failed (${error.kind}): ${error.message}`);
}

async function call(
  ctx: TurnContext,
  model: ChatModel,
  conversation: LedgerConversation,
  messages: readonly ChatMessage[],
): Promise<ModelResponse> {
  ctx.throwIfAborted();
  const response = await model.generate({
    system: conversation.system,
    messages,
    tools: [ledgerTool(ctx.cartridge).spec],
    toolChoice: 'required',
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  ctx.modelIds.narrator = response.modelId;
  return response;
}

/**
 * Checks the first proposal and repairs it at most MAX_LEDGER_REPAIRS times. `required`: whether an answer
 * without a tool call is an error (the extraction call) or simply "nothing changed" (inline prose).
 */
export async function settleProposal(
  ctx: TurnContext,
  model: ChatModel,
  conversation: LedgerConversation,
  first: LedgerAnswer,
  kind: 'narrator' | 'extraction',
): Promise<LedgerOutcome> {
  const at = stampOf(ctx);
  const attempts: LedgerAttempt[] = [];
  const unchanged = (status: LedgerStatus, repairs: number, errors: readonly LedgerIssue[]): LedgerOutcome =>
    unchangedOutcome(ctx, at, attempts, status, repairs, errors);
  if (kind === 'narrator' && first.toolCalls.length === 0) return unchanged('none', 0, []);

  let answer = first;
  let messages = conversation.messages;
  for (let repairs = 0; ; repairs++) {
    const checked = checkCalls(ctx, answer.toolCalls, at);
    attempts.push({
      kind: repairs === 0 ? kind : 'repair',
      calls: auditCalls(answer.toolCalls),
      ok: checked.ok,
      errors: checked.ok ? [] : checked.errors,
    });
    if (checked.ok) {
      const nothing = checked.events.length === 0 && checked.seconds === 0;
      return {
        status: nothing ? 'none' : 'applied',
        events: checked.events,
        world: nothing ? ctx.ledger.world : checked.world,
        at,
        time: checked.time,
        seconds: checked.seconds,
        repairs,
        errors: [],
        attempts,
      };
    }
    if (repairs >= MAX_LEDGER_REPAIRS) return unchanged('unledgered', repairs, checked.errors);
    messages = repairMessages(messages, answer, checked.errors);
    recordRepairPrompt(ctx, conversation, checked.errors, repairs);
    try {
      const response = await call(ctx, model, conversation, messages);
      answer = { text: response.text, toolCalls: response.toolCalls };
    } catch (error) {
      const failure = ledgerCallFailure(ctx, error);
      return unchanged('unledgered', repairs + 1, [...checked.errors, failure]);
    }
  }
}

/** An outcome that changes nothing: no events, the world as it was. */
function unchangedOutcome(
  ctx: TurnContext,
  at: Stamp,
  attempts: LedgerAttempt[],
  status: LedgerStatus,
  repairs: number,
  errors: readonly LedgerIssue[],
): LedgerOutcome {
  return {
    status,
    events: [],
    world: ctx.ledger.world,
    at,
    time: null,
    seconds: 0,
    repairs,
    errors,
    attempts,
  };
}

/** The repair call's prompt in the turn's prompt reports: the conversation's sections and the repair message. */
function recordRepairPrompt(
  ctx: TurnContext,
  conversation: LedgerConversation,
  errors: readonly LedgerIssue[],
  repairs: number,
): void {
  const tokens = estimateTokens(repairContent(errors));
  ctx.prompts.push({
    role: 'narrator',
    call: ctx.prompts.filter((p) => p.role === 'narrator').length + 1,
    sections: [
      ...conversation.sections,
      {
        id: 'repair',
        kind: 'volatile',
        carrier: 'messages',
        tokens,
        included: true,
        reason: `repair ${repairs + 1} of at most ${MAX_LEDGER_REPAIRS} (MAX_LEDGER_REPAIRS): the rejected call and its ${errors.length} error(s)`,
      },
    ],
    tokens: conversation.tokens + tokens,
    budget: conversation.budget,
  });
}

/** `separate` mode: one short call that reads the finished narration and records its world changes. */
export async function extractWorldChanges(
  ctx: TurnContext,
  model: ChatModel,
  turn: { readonly inputText: string; readonly narration: string },
): Promise<LedgerOutcome> {
  const prompt = ctx.budget.measure({ kind: 'prompt', role: 'ledger extraction' }, () =>
    assemblePrompt(extractionSections(ctx, turn), ctx.limits.narratorPromptTokens),
  );
  const conversation: LedgerConversation = {
    system: prompt.system,
    messages: [{ role: 'user', content: extractionMessage(turn) }],
    sections: prompt.sections,
    tokens: prompt.tokens,
    budget: prompt.budget,
  };
  ctx.prompts.push({
    role: 'narrator',
    call: ctx.prompts.filter((p) => p.role === 'narrator').length + 1,
    sections: prompt.sections,
    tokens: prompt.tokens,
    budget: prompt.budget,
  });
  let first: LedgerAnswer;
  try {
    const response = await call(ctx, model, conversation, conversation.messages);
    first = { text: response.text, toolCalls: response.toolCalls };
  } catch (error) {
    const failure = ledgerCallFailure(ctx, error);
    const at = stampOf(ctx);
    return {
      status: 'unledgered',
      events: [],
      world: ctx.ledger.world,
      at,
      time: null,
      seconds: 0,
      repairs: 0,
      errors: [failure],
      attempts: [{ kind: 'extraction', calls: [], ok: false, errors: [failure] }],
    };
  }
  return settleProposal(ctx, model, conversation, first, 'extraction');
}
