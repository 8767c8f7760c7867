// A ChatModel on top of an AI SDK language model: one step per call (no tool loop), tools returned to
// the caller instead of executed, malformed or unknown tool calls returned as calls, our own retry
// policy, and a timeout that bounds a whole `generate` or each silence inside a `stream`.

import {
  type LanguageModelMiddleware,
  type LanguageModelUsage,
  generateText,
  streamText,
  ToolChoiceViolationError,
  wrapLanguageModel,
} from 'ai';
import type { ModelError } from './errors.ts';
import {
  type AttemptSignal,
  type RetryPolicy,
  abortedError,
  withRetries,
  withStreamRetries,
} from './retry.ts';
import { classifySdkError } from './sdk-errors.ts';
import { toModelMessages, toToolChoice, toToolSet } from './sdk-messages.ts';
import { parseToolArgs } from './tool-args.ts';
import type { ChatModel, ModelRequest, ModelResponse, ModelStreamPart, ToolCall, Usage } from './types.ts';

export type SdkLanguageModel = Parameters<typeof wrapLanguageModel>[0]['model'];

export interface SdkChatModelOptions {
  readonly policy: RetryPolicy;
  /** Strings to remove from every error message (the API key). */
  readonly secrets?: readonly string[];
  /**
   * `anthropic`: mark cache breakpoints (the system prompt, which follows the tools, and each message the
   * engine flagged with `cacheBreakpoint`, the end of the history), so consecutive turns read their
   * shared prefix from Anthropic's prompt cache.
   */
  readonly promptCache?: 'anthropic';
}

/** Tool-call arguments exactly as the provider sent them, keyed by call id, captured per call. */
type RawArgs = Map<string, string>;

/** What the provider returned to a `generate`, kept in case the SDK refuses it (see below). */
interface Captured {
  raw: RawArgs;
  usage?: LanguageModelUsage;
}

// The SDK hands us parsed input (or, for invalid calls, sometimes the raw text); the middleware keeps
// the provider's original string so `rawArgs` is always what the model really wrote.
function captureRaw(captured: Captured): LanguageModelMiddleware {
  const { raw } = captured;
  return {
    specificationVersion: 'v3',
    wrapGenerate: async ({ doGenerate }) => {
      const result = await doGenerate();
      for (const part of result.content) {
        if (part.type === 'tool-call') raw.set(part.toolCallId, part.input);
      }
      captured.usage = toSdkUsage(result.usage);
      return result;
    },
    wrapStream: async ({ doStream }) => {
      const { stream, ...rest } = await doStream();
      return {
        ...rest,
        stream: stream.pipeThrough(
          new TransformStream({
            transform(part, controller) {
              if (part.type === 'tool-call') raw.set(part.toolCallId, part.input);
              controller.enqueue(part);
            },
          }),
        ),
      };
    },
  };
}

interface SdkToolCallLike {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

function toToolCall(call: SdkToolCallLike, raw: RawArgs): ToolCall {
  const rawArgs =
    raw.get(call.toolCallId) ??
    (typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {}));
  return { id: call.toolCallId, name: call.toolName, args: parseToolArgs(rawArgs), rawArgs };
}

// The provider-level usage (inside the middleware) has a different shape from the SDK's public one.
type ProviderUsage = Awaited<
  ReturnType<Parameters<NonNullable<LanguageModelMiddleware['wrapGenerate']>>[0]['doGenerate']>
>['usage'];

function toSdkUsage(usage: ProviderUsage): LanguageModelUsage {
  return {
    inputTokens: usage.inputTokens.total,
    inputTokenDetails: {
      noCacheTokens: usage.inputTokens.noCache,
      cacheReadTokens: usage.inputTokens.cacheRead,
      cacheWriteTokens: usage.inputTokens.cacheWrite,
    },
    outputTokens: usage.outputTokens.total,
    outputTokenDetails: {
      textTokens: usage.outputTokens.text,
      reasoningTokens: usage.outputTokens.reasoning,
    },
    totalTokens: undefined,
  };
}

/** Absent `cachedInputTokens` means the provider reported none (or reported 0). */
export function toUsage(usage: LanguageModelUsage | undefined): Usage {
  const cached = usage?.inputTokenDetails?.cacheReadTokens ?? usage?.cachedInputTokens;
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    ...(cached === undefined || cached === 0 ? {} : { cachedInputTokens: cached }),
  };
}

// Tool choice is a request, not a guarantee (local models often ignore it). The SDK turns a model that
// did not comply into an error; we return what the model did and let the engine decide.
function violationCalls(error: ToolChoiceViolationError, raw: RawArgs): { text: string; calls: ToolCall[] } {
  let text = '';
  const calls: ToolCall[] = [];
  for (const part of error.content) {
    if (part.type === 'text') text += part.text;
    if (part.type === 'tool-call') calls.push(toToolCall(part, raw));
  }
  return { text, calls };
}

/** Anthropic's cache breakpoint, as AI SDK provider options. */
const ANTHROPIC_BREAKPOINT = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

export function createSdkChatModel(
  model: SdkLanguageModel,
  id: string,
  options: SdkChatModelOptions,
): ChatModel {
  const secrets = options.secrets ?? [];
  const call: SdkCall = { model, id, options };
  const retries = (req: ModelRequest) => ({
    policy: options.policy,
    modelId: id,
    classify: (error: unknown): ModelError => classifySdkError(error, id, secrets),
    ...signalOf(req),
  });
  return {
    id,
    generate: (req) => withRetries(retries(req), (signal) => generateOnce(call, req, signal)),
    stream: (req) => withStreamRetries(retries(req), (attempt) => streamOnce(call, req, attempt)),
  };
}

/** What every call to one SDK model shares. */
interface SdkCall {
  readonly model: SdkLanguageModel;
  readonly id: string;
  readonly options: SdkChatModelOptions;
}

function callSettings(call: SdkCall, req: ModelRequest, captured: Captured, abortSignal: AbortSignal) {
  const { model, options } = call;
  const tools = toToolSet(req.tools);
  const toolChoice = tools === undefined ? undefined : toToolChoice(req.toolChoice);
  return {
    model: wrapLanguageModel({ model, middleware: captureRaw(captured) }),
    ...(options.promptCache === 'anthropic'
      ? {
          messages: [
            { role: 'system' as const, content: req.system, providerOptions: ANTHROPIC_BREAKPOINT },
            ...toModelMessages(req.messages, ANTHROPIC_BREAKPOINT),
          ],
          // The system message is the engine's own prompt (it carries the breakpoint), never model text.
          allowSystemInMessages: true,
        }
      : { system: req.system, messages: toModelMessages(req.messages) }),
    ...(tools === undefined ? {} : { tools }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
    ...(req.maxOutputTokens === undefined ? {} : { maxOutputTokens: req.maxOutputTokens }),
    maxRetries: 0,
    abortSignal,
  };
}

/** One attempt of a whole answer; a model that broke the tool choice still has its calls returned. */
async function generateOnce(call: SdkCall, req: ModelRequest, signal: AbortSignal): Promise<ModelResponse> {
  const captured: Captured = { raw: new Map() };
  const raw = captured.raw;
  let result: Awaited<ReturnType<typeof generateText>>;
  try {
    result = await generateText(callSettings(call, req, captured, signal));
  } catch (error) {
    if (!ToolChoiceViolationError.isInstance(error)) throw error;
    const { text, calls } = violationCalls(error, raw);
    return {
      text,
      toolCalls: calls,
      usage: toUsage(captured.usage),
      finishReason: error.finishReason,
      modelId: call.id,
    };
  }
  return {
    text: result.text,
    toolCalls: result.toolCalls.map((call) => toToolCall(call, raw)),
    usage: toUsage(result.usage),
    finishReason: result.finishReason,
    modelId: result.response.modelId || call.id,
  };
}

/** One streamed attempt, as the engine's stream parts. */
async function* streamOnce(
  call: SdkCall,
  req: ModelRequest,
  attempt: AttemptSignal,
): AsyncGenerator<ModelStreamPart> {
  const captured: Captured = { raw: new Map() };
  const raw = captured.raw;
  const result = streamText({
    ...callSettings(call, req, captured, attempt.signal),
    // Errors arrive as `error` parts below; without this the SDK also prints them to the console.
    onError: () => {},
  });
  let text = '';
  const toolCalls: ToolCall[] = [];
  let finishReason = 'unknown';
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let modelId = call.id;
  for await (const part of result.fullStream) {
    attempt.reset();
    switch (part.type) {
      case 'text-delta':
        if (part.text === '') break;
        text += part.text;
        yield { type: 'text-delta', text: part.text };
        break;
      case 'tool-call': {
        const call = toToolCall(part, raw);
        toolCalls.push(call);
        yield { type: 'tool-call', call };
        break;
      }
      case 'finish-step':
        if (part.response.modelId) modelId = part.response.modelId;
        break;
      case 'finish':
        // After a withheld-tool-call error the SDK reports `error`; the raw reason is the truth.
        finishReason =
          part.finishReason === 'error' && part.rawFinishReason ? part.rawFinishReason : part.finishReason;
        usage = toUsage(part.totalUsage);
        break;
      case 'error':
        if (ToolChoiceViolationError.isInstance(part.error)) {
          // Tool calls the SDK withheld under `toolChoice: 'none'`: hand them over anyway.
          for (const call of violationCalls(part.error, raw).calls) {
            toolCalls.push(call);
            yield { type: 'tool-call', call };
          }
          break;
        }
        throw part.error;
      case 'abort':
        throw abortedError(call.id);
      default:
        // Reasoning, tool-input deltas, tool-error echoes of invalid calls, step markers: not ours.
        break;
    }
  }
  yield { type: 'finish', response: { text, toolCalls, usage, finishReason, modelId } };
}

function signalOf(req: ModelRequest): { signal?: AbortSignal } {
  return req.signal === undefined ? {} : { signal: req.signal };
}
