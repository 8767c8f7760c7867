// The OpenAI Chat Completions wire format, as plain data: the request body for the engine's request,
// and the assembly of a streamed answer (text deltas, tool-call deltas in the OpenAI shape — fragments
// keyed by `index` — and in the Ollama shape — whole calls without an index —, usage, finish reason).
// No I/O here; `openai-compatible-model.ts` does the HTTP.

import { ModelError } from './errors.ts';
import { MAX_RESPONSE_CHARS, MAX_TOOL_CALLS_PER_RESPONSE } from './limits.ts';
import {
  cappedText,
  MAX_MODEL_ID_CHARS,
  MAX_TOOL_CALL_ID_CHARS,
  MAX_TOOL_CALL_NAME_CHARS,
  type RefusedOutput,
  refusedOutput,
  standInCallId,
} from './output-caps.ts';
import { echoedInput, parseToolArgs } from './tool-args.ts';
import { checkToolSpecs } from './tool-specs.ts';
import type { ChatMessage, JsonSchema, ModelRequest, ToolCall, ToolChoice, Usage } from './types.ts';
import { isRecord as isObject } from '../../core/is-record.ts';

export function chatCompletionBody(
  modelId: string,
  req: ModelRequest,
  stream: boolean,
): Record<string, unknown> {
  const tools = req.tools ?? [];
  checkToolSpecs(tools);
  const body: Record<string, unknown> = {
    model: modelId,
    messages: [{ role: 'system', content: req.system }, ...req.messages.map(wireMessage)],
  };
  if (req.maxOutputTokens !== undefined) body.max_tokens = req.maxOutputTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (tools.length > 0) {
    body.tools = tools.map((spec) => ({
      type: 'function',
      function:
        req.strictTools === true
          ? {
              name: spec.name,
              description: spec.description,
              parameters: strictSchema(spec.inputSchema),
              strict: true,
            }
          : { name: spec.name, description: spec.description, parameters: spec.inputSchema },
    }));
    if (req.toolChoice !== undefined) body.tool_choice = wireToolChoice(req.toolChoice);
  }
  if (req.responseSchema !== undefined) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: req.responseSchema.name, schema: req.responseSchema.schema, strict: true },
    };
  }
  if (stream) {
    body.stream = true;
    // Ask for the usage chunk at the end of a stream (OpenAI, vLLM, Ollama and llama.cpp send it).
    body.stream_options = { include_usage: true };
  }
  return body;
}

/**
 * A tool schema in the form OpenAI's strict mode takes: every property required (an optional one may be
 * null, which the engine reads as absent), no other properties, and no `default`, `minLength` or
 * `maxLength` (keywords strict mode refuses; the engine's validator still enforces the lengths).
 */
export function strictSchema(schema: JsonSchema): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'default' || key === 'minLength' || key === 'maxLength') continue;
    out[key] = value;
  }
  if (isObject(schema.items)) out.items = strictSchema(schema.items);
  if (isObject(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const properties: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!isObject(property)) continue;
      const strict = strictSchema(property) as Record<string, unknown>;
      if (!required.has(name)) {
        if (typeof strict.type === 'string') strict.type = [strict.type, 'null'];
        if (Array.isArray(strict.enum)) strict.enum = [...strict.enum, null];
      }
      properties[name] = strict;
    }
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

function wireMessage(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // As OpenAI documents it (and the AI SDK sends it): no text beside tool calls is `null`.
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(echoedInput(call)) },
        })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    default: {
      const never: never = message;
      throw new ModelError('bad-request', `unknown chat message role in ${JSON.stringify(never)}`);
    }
  }
}

function wireToolChoice(choice: ToolChoice): unknown {
  if (typeof choice === 'object') return { type: 'function', function: { name: choice.tool } };
  return choice;
}

/** The provider's finish reason in the engine's (and the AI SDK's) vocabulary. */
export function finishReasonOf(raw: string | undefined): string {
  switch (raw) {
    case 'stop':
    case 'length':
      return raw;
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'unknown';
  }
}

interface WireUsage {
  readonly prompt_tokens?: unknown;
  readonly completion_tokens?: unknown;
  readonly prompt_tokens_details?: { readonly cached_tokens?: unknown } | null;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function usageOf(wire: unknown): Usage {
  const usage = (isObject(wire) ? wire : {}) as WireUsage;
  const cached = count(
    isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details.cached_tokens : undefined,
  );
  return {
    inputTokens: count(usage.prompt_tokens) ?? 0,
    outputTokens: count(usage.completion_tokens) ?? 0,
    ...(cached === undefined || cached === 0 ? {} : { cachedInputTokens: cached }),
  };
}

/** A finish reason longer than this is no reason the engine knows; the rest is not kept. */
const MAX_FINISH_REASON_KEPT = 64;

function badResponse(modelId: string, what: string): ModelError {
  return new ModelError('bad-response', `model ${modelId}: unusable response: ${what}`, { modelId });
}

interface PendingCall {
  id: string;
  /** The server sent no id yet (we made one up); the first id it sends replaces it. */
  madeUpId: boolean;
  name: string;
  args: string;
}

/**
 * Reads the chunks of one streamed answer. `chunk` returns the text delta it carried ('' when none);
 * tool calls are assembled until `finish`, since OpenAI-shaped arguments arrive in fragments.
 */
export class StreamAssembler {
  readonly #modelId: string;
  readonly #calls: PendingCall[] = [];
  /** OpenAI shape: the call each `index` refers to. */
  readonly #byIndex = new Map<number, PendingCall>();
  #chars = 0;
  text = '';
  usage: Usage = { inputTokens: 0, outputTokens: 0 };
  rawFinishReason: string | undefined;
  responseModelId: string | undefined;
  /** Ids, names and the model id over their caps, replaced as they arrived (output-caps.ts). */
  readonly refused: RefusedOutput[] = [];

  constructor(modelId: string) {
    this.#modelId = modelId;
  }

  /** One parsed `data:` payload. Returns its text delta. */
  chunk(value: unknown): string {
    if (!isObject(value)) throw badResponse(this.#modelId, 'a stream chunk is not a JSON object');
    if (isObject(value.error)) {
      const message =
        typeof value.error.message === 'string' ? value.error.message : JSON.stringify(value.error);
      throw badResponse(this.#modelId, `the provider reported an error mid-stream: ${message}`);
    }
    if (typeof value.model === 'string' && value.model !== '') this.#modelIdOf(value.model);
    if (value.usage !== undefined && value.usage !== null) this.usage = usageOf(value.usage);
    const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
    if (!isObject(choice)) return '';
    if (typeof choice.finish_reason === 'string')
      this.rawFinishReason = choice.finish_reason.slice(0, MAX_FINISH_REASON_KEPT);
    const delta = choice.delta;
    if (!isObject(delta)) return '';
    if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) this.#toolDelta(call);
    const text = typeof delta.content === 'string' ? delta.content : '';
    if (text !== '') {
      this.#grow(text.length);
      this.text += text;
    }
    return text;
  }

  // Every chunk of a stream may repeat the model id: one refusal is enough.
  #modelIdOf(model: string): void {
    if (model.length <= MAX_MODEL_ID_CHARS) this.responseModelId = model;
    else if (!this.refused.some((r) => r.field === 'modelId'))
      cappedText('modelId', model, MAX_MODEL_ID_CHARS, 'MAX_MODEL_ID_CHARS', this.refused);
  }

  #toolDelta(delta: unknown): void {
    if (!isObject(delta)) throw badResponse(this.#modelId, 'a tool call delta is not an object');
    const fn = isObject(delta.function) ? delta.function : {};
    const rawId = typeof delta.id === 'string' ? delta.id : undefined;
    const rawName = typeof fn.name === 'string' ? fn.name : undefined;
    const args =
      typeof fn.arguments === 'string'
        ? fn.arguments
        : isObject(fn.arguments)
          ? JSON.stringify(fn.arguments)
          : '';
    const index = typeof delta.index === 'number' && Number.isInteger(delta.index) ? delta.index : undefined;
    let call = index === undefined ? undefined : this.#byIndex.get(index);
    if (call === undefined) {
      // A new call: the first fragment of an index (OpenAI), or a whole call without one (Ollama).
      if (this.#calls.length >= MAX_TOOL_CALLS_PER_RESPONSE) {
        throw badResponse(
          this.#modelId,
          `more than ${MAX_TOOL_CALLS_PER_RESPONSE} tool calls (MAX_TOOL_CALLS_PER_RESPONSE)`,
        );
      }
      const at = this.#calls.length;
      const id = rawId === undefined ? undefined : this.#cappedId(rawId, at);
      call = {
        id: id ?? `call_${at}`,
        madeUpId: id === undefined,
        name: rawName === undefined ? '' : this.#cappedName(rawName, at),
        args: '',
      };
      this.#calls.push(call);
      if (index !== undefined) this.#byIndex.set(index, call);
    } else {
      // A later fragment: its id and name count only where the call has none yet (each is read once).
      const at = this.#calls.indexOf(call);
      if (rawId !== undefined && call.madeUpId) {
        call.id = this.#cappedId(rawId, at);
        call.madeUpId = false;
      }
      if (rawName !== undefined && call.name === '') call.name = this.#cappedName(rawName, at);
    }
    this.#grow(args.length);
    call.args += args;
  }

  // Ids and names are capped as they arrive (output-caps.ts), so 256 calls of a megabyte each are never
  // held, and each call refuses at most one id and one name.
  #cappedId(raw: string, at: number): string {
    return (
      cappedText(
        `toolCalls[${at}].id`,
        raw,
        MAX_TOOL_CALL_ID_CHARS,
        'MAX_TOOL_CALL_ID_CHARS',
        this.refused,
      ) ?? standInCallId(at)
    );
  }

  #cappedName(raw: string, at: number): string {
    if (raw.length <= MAX_TOOL_CALL_NAME_CHARS) return raw;
    this.refused.push(
      refusedOutput(
        `toolCalls[${at}].name`,
        `longer than ${MAX_TOOL_CALL_NAME_CHARS} characters (MAX_TOOL_CALL_NAME_CHARS)`,
        raw,
      ),
    );
    return raw.slice(0, MAX_TOOL_CALL_NAME_CHARS);
  }

  #grow(chars: number): void {
    this.#chars += chars;
    if (this.#chars > MAX_RESPONSE_CHARS) {
      throw badResponse(
        this.#modelId,
        `the answer is longer than ${MAX_RESPONSE_CHARS} characters (MAX_RESPONSE_CHARS)`,
      );
    }
  }

  /** The calls, in the order they started. A call without a name is dropped (nothing can run it). */
  toolCalls(): ToolCall[] {
    return this.#calls
      .filter((call) => call.name !== '')
      .map((call) => ({ id: call.id, name: call.name, args: parseToolArgs(call.args), rawArgs: call.args }));
  }
}

/** A non-streamed chat completion, read the same way. */
export function readCompletion(
  modelId: string,
  value: unknown,
): {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  rawFinishReason: string | undefined;
  responseModelId: string | undefined;
  refused: readonly RefusedOutput[];
} {
  if (!isObject(value)) throw badResponse(modelId, 'the body is not a JSON object');
  const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
  if (!isObject(choice) || !isObject(choice.message)) throw badResponse(modelId, 'no choices in the answer');
  const assembler = new StreamAssembler(modelId);
  assembler.chunk({
    ...(typeof value.model === 'string' ? { model: value.model } : {}),
    usage: value.usage,
    choices: [
      {
        finish_reason: choice.finish_reason,
        delta: {
          content: choice.message.content,
          tool_calls: Array.isArray(choice.message.tool_calls)
            ? choice.message.tool_calls.map((call, index) => (isObject(call) ? { index, ...call } : call))
            : undefined,
        },
      },
    ],
  });
  return {
    text: assembler.text,
    toolCalls: assembler.toolCalls(),
    usage: assembler.usage,
    rawFinishReason: assembler.rawFinishReason,
    responseModelId: assembler.responseModelId,
    refused: assembler.refused,
  };
}
