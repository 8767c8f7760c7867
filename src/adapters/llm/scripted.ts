// The scripted provider: plays back a script's responses per role, in order, and records every request
// so tests can inspect prompts. Scripted errors surface as they are, with no retries: they stand for a
// call that has already failed for good.

import { estimateTokens } from '../../core/tokens.ts';
import { ModelError } from './errors.ts';
import { abortableSleep, abortedError } from './retry.ts';
import {
  isScriptError,
  type ModelScript,
  type ModelScriptInput,
  type ScriptEntry,
  validateModelScript,
} from './script.ts';
import { parseToolArgs } from './tool-args.ts';
import type {
  ChatModel,
  ModelRequest,
  ModelResponse,
  ModelRole,
  ModelSet,
  ModelStreamPart,
  ToolCall,
} from './types.ts';

/** A request as the scripted model received it (the abort signal is not kept). */
export type RecordedRequest = Omit<ModelRequest, 'signal'>;

export interface ScriptedChatModel extends ChatModel {
  readonly role: ModelRole;
  /** Every request received, in order, including ones answered with a scripted error. */
  readonly requests: readonly RecordedRequest[];
  /** Responses not yet played. */
  remaining(): number;
}

export interface ScriptedModelSet extends ModelSet {
  readonly director: ScriptedChatModel;
  readonly narrator: ScriptedChatModel;
  readonly npc: ScriptedChatModel;
  /** Every request to any role, in the order they were made. */
  readonly calls: readonly { readonly role: ModelRole; readonly request: RecordedRequest }[];
}

function record(req: ModelRequest): RecordedRequest {
  const { signal: _signal, ...rest } = req;
  // A deep copy: the engine may reuse and mutate its message arrays after the call.
  return structuredClone(rest);
}

function wordsOf(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function promptText(req: ModelRequest): string {
  return [req.system, ...req.messages.map((m) => m.content)].join('\n');
}

function respond(
  entry: Exclude<ScriptEntry, { error: unknown }>,
  role: ModelRole,
  callNo: number,
  req: ModelRequest,
) {
  const id = `scripted-${role}`;
  const toolCalls: ToolCall[] = (entry.toolCalls ?? []).map((call, i) => {
    const rawArgs = call.rawArgs ?? JSON.stringify(call.args ?? {});
    return {
      id: call.id ?? `call_${role}_${callNo}_${i}`,
      name: call.name,
      args: parseToolArgs(rawArgs),
      rawArgs,
    };
  });
  const text = entry.text ?? entry.chunks?.join('') ?? '';
  const response: ModelResponse = {
    text,
    toolCalls,
    usage: entry.usage ?? {
      inputTokens: estimateTokens(promptText(req)),
      outputTokens: estimateTokens(text + toolCalls.map((c) => c.rawArgs).join('')),
    },
    finishReason: entry.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
    modelId: id,
  };
  return { response, chunks: entry.chunks ?? wordsOf(text) };
}

function createScriptedModel(
  role: ModelRole,
  entries: readonly ScriptEntry[],
  log: { role: ModelRole; request: RecordedRequest }[],
): ScriptedChatModel {
  const script = new RoleScript(role, entries, log);
  const id = script.id;
  return {
    id,
    role,
    requests: script.requests,
    remaining: () => script.remaining,
    async generate(req) {
      const { entry, callNo: n } = script.take(req);
      await script.play(entry, req.signal);
      if (isScriptError(entry)) throw new Error('unreachable: play() throws for scripted errors');
      return respond(entry, role, n, req).response;
    },
    stream(req) {
      let taken: TakenEntry | undefined;
      let takeError: unknown;
      try {
        taken = script.take(req);
      } catch (error) {
        takeError = error;
      }
      return (async function* (): AsyncGenerator<ModelStreamPart> {
        if (taken === undefined) throw takeError;
        yield* streamEntry(script, taken, req);
      })();
    },
  };
}

type TakenEntry = { entry: ScriptEntry; callNo: number };

/** One role's script: the entries left, and the requests it was called with. */
class RoleScript {
  readonly id: string;
  readonly requests: RecordedRequest[] = [];
  readonly #queue: ScriptEntry[];
  #callNo = 0;

  constructor(
    readonly role: ModelRole,
    private readonly entries: readonly ScriptEntry[],
    private readonly log: { role: ModelRole; request: RecordedRequest }[],
  ) {
    this.id = `scripted-${role}`;
    this.#queue = [...entries];
  }

  get remaining(): number {
    return this.#queue.length;
  }

  // Takes the next entry at call time (not on first iteration), so the order of calls is the order of play.
  take(req: ModelRequest): TakenEntry {
    if (req.signal?.aborted) throw abortedError(this.id);
    const recorded = record(req);
    this.requests.push(recorded);
    this.log.push({ role: this.role, request: recorded });
    const callNo = ++this.#callNo;
    const entry = this.#queue.shift();
    if (entry === undefined) {
      throw new ModelError(
        'script-exhausted',
        `scripted ${this.role} model: no response left (the script has ${this.entries.length}, this is call ${callNo})`,
        { modelId: this.id },
      );
    }
    return { entry, callNo };
  }

  /** Waits the entry's delay; throws the error a scripted error entry stands for. */
  async play(entry: ScriptEntry, signal: AbortSignal | undefined): Promise<void> {
    if (entry.delayMs !== undefined && entry.delayMs > 0) await abortableSleep(entry.delayMs, signal);
    if (signal?.aborted) throw abortedError(this.id);
    if (isScriptError(entry)) {
      const { kind, status, message } = entry.error;
      throw new ModelError(
        kind,
        message ?? `scripted ${this.role} model: ${kind}${status === undefined ? '' : ` ${status}`}`,
        {
          modelId: this.id,
          ...(status === undefined ? {} : { status }),
          attempts: 1,
        },
      );
    }
  }
}

async function* streamEntry(
  script: RoleScript,
  { entry, callNo }: TakenEntry,
  req: ModelRequest,
): AsyncGenerator<ModelStreamPart> {
  await script.play(entry, req.signal);
  if (isScriptError(entry)) return;
  const { response, chunks } = respond(entry, script.role, callNo, req);
  for (const text of chunks) {
    if (req.signal?.aborted) throw abortedError(script.id);
    if (text !== '') yield { type: 'text-delta', text };
  }
  for (const call of response.toolCalls) {
    if (req.signal?.aborted) throw abortedError(script.id);
    yield { type: 'tool-call', call };
  }
  yield { type: 'finish', response };
}

/** Scripted models for all three roles; the input is validated like a script file. */
export function createScriptedModels(
  script: ModelScript | ModelScriptInput,
  source = 'script',
): ScriptedModelSet {
  const valid = validateModelScript(script, source);
  const calls: { role: ModelRole; request: RecordedRequest }[] = [];
  return {
    director: createScriptedModel('director', valid.director, calls),
    narrator: createScriptedModel('narrator', valid.narrator, calls),
    npc: createScriptedModel('npc', valid.npc, calls),
    calls,
  };
}
