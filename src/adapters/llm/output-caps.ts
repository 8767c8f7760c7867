// Caps on every field of a model's answer that the engine keeps (the model id, tool-call ids and names,
// the finish reason, the token counts). The text and the tool arguments have their own bounds
// (MAX_RESPONSE_CHARS here, the turn's argument checks in engine/turn/args.ts); these are the small
// fields a hostile or broken server can still blow up. An over-cap value is never kept: it is replaced
// by a stand-in, and what was refused is kept as a reason, a length and a sha256, as refused tool
// arguments are (engine/turn/tools.ts, refusedArgs).

import { createHash } from 'node:crypto';
import type {
  ChatModel,
  ModelResponse,
  ModelRole,
  ModelSet,
  ModelStreamPart,
  RefusedOutput,
  ToolCall,
  Usage,
} from './types.ts';

export type { RefusedOutput } from './types.ts';

/** Characters of a model id (the configured one and the one the server answers with). */
export const MAX_MODEL_ID_CHARS = 200;
/** Characters of one tool-call id (OpenAI's are ~30; Anthropic's ~40). */
export const MAX_TOOL_CALL_ID_CHARS = 128;
/** Characters of a tool name kept from an answer (valid names are at most 64; a longer one runs nothing). */
export const MAX_TOOL_CALL_NAME_CHARS = 256;
/** Characters of a finish reason (`stop`, `tool-calls`, `content-filter`, …). */
export const MAX_FINISH_REASON_CHARS = 32;
/** Tokens one call may report for each count; more is a broken server, and the count is taken as 0. */
export const MAX_USAGE_TOKENS = 100_000_000;

export function refusedOutput(field: string, reason: string, value: string): RefusedOutput {
  return { field, reason, chars: value.length, sha256: createHash('sha256').update(value).digest('hex') };
}

/** `value` when it is within `max` characters, else undefined and the refusal is added to `refused`. */
export function cappedText(
  field: string,
  value: string,
  max: number,
  limitName: string,
  refused: RefusedOutput[],
): string | undefined {
  if (value.length <= max) return value;
  refused.push(refusedOutput(field, `longer than ${max} characters (${limitName})`, value));
  return undefined;
}

function cappedCount(field: string, value: number | undefined, refused: RefusedOutput[]): number | undefined {
  if (value === undefined) return undefined;
  if (Number.isSafeInteger(value) && value >= 0 && value <= MAX_USAGE_TOKENS) return value;
  refused.push(
    refusedOutput(field, `not a token count from 0 to ${MAX_USAGE_TOKENS} (MAX_USAGE_TOKENS)`, String(value)),
  );
  return 0;
}

/** A stand-in id for a call whose id was refused: unique within the answer, and says what it is. */
export function standInCallId(index: number): string {
  return `call_capped_${index}`;
}

function cappedCall(call: ToolCall, index: number, refused: RefusedOutput[]): ToolCall {
  const id =
    cappedText(
      `toolCalls[${index}].id`,
      call.id,
      MAX_TOOL_CALL_ID_CHARS,
      'MAX_TOOL_CALL_ID_CHARS',
      refused,
    ) ?? standInCallId(index);
  let name = call.name;
  if (name.length > MAX_TOOL_CALL_NAME_CHARS) {
    refused.push(
      refusedOutput(
        `toolCalls[${index}].name`,
        `longer than ${MAX_TOOL_CALL_NAME_CHARS} characters (MAX_TOOL_CALL_NAME_CHARS)`,
        name,
      ),
    );
    name = name.slice(0, MAX_TOOL_CALL_NAME_CHARS);
  }
  return id === call.id && name === call.name ? call : { ...call, id, name };
}

function cappedUsage(usage: Usage, refused: RefusedOutput[]): Usage {
  const cached = cappedCount('usage.cachedInputTokens', usage.cachedInputTokens, refused);
  return {
    inputTokens: cappedCount('usage.inputTokens', usage.inputTokens, refused) ?? 0,
    outputTokens: cappedCount('usage.outputTokens', usage.outputTokens, refused) ?? 0,
    ...(cached === undefined || cached === 0 ? {} : { cachedInputTokens: cached }),
  };
}

/** The configured id of a model, or a stand-in when even that is over the cap. */
function cappedConfiguredId(id: string): string {
  return id.length <= MAX_MODEL_ID_CHARS ? id : `${id.slice(0, MAX_MODEL_ID_CHARS)}…`;
}

/**
 * `response` with every capped field within its cap, and `refused` saying what was replaced: an id the
 * server answered with over the cap becomes the configured id, a call id a stand-in, a finish reason
 * `unknown`, a token count 0.
 */
export function capResponse(response: ModelResponse, configuredId: string): ModelResponse {
  const refused: RefusedOutput[] = [...(response.refused ?? [])];
  const before = refused.length;
  const modelId =
    cappedText('modelId', response.modelId, MAX_MODEL_ID_CHARS, 'MAX_MODEL_ID_CHARS', refused) ??
    cappedConfiguredId(configuredId);
  const finishReason =
    cappedText(
      'finishReason',
      response.finishReason,
      MAX_FINISH_REASON_CHARS,
      'MAX_FINISH_REASON_CHARS',
      refused,
    ) ?? 'unknown';
  const toolCalls = response.toolCalls.map((call, index) => cappedCall(call, index, refused));
  const usage = cappedUsage(response.usage, refused);
  if (refused.length === before) return response;
  return { ...response, modelId, finishReason, toolCalls, usage, refused };
}

/** Called with every refusal of a role's answers, as they finish. */
export type RefusedOutputSink = (role: ModelRole, refused: readonly RefusedOutput[]) => void;

function capModel(model: ChatModel, role: ModelRole, sink: RefusedOutputSink): ChatModel {
  const id = cappedConfiguredId(model.id);
  const finish = (response: ModelResponse): ModelResponse => {
    const capped = capResponse(response, id);
    if (capped.refused !== undefined && capped.refused.length > 0) sink(role, capped.refused);
    return capped;
  };
  return {
    id,
    ...(model.decoding === undefined ? {} : { decoding: model.decoding }),
    async generate(req) {
      return finish(await model.generate(req));
    },
    async *stream(req): AsyncIterable<ModelStreamPart> {
      // Calls are streamed before the finish part; each is capped as it comes (its index in the answer).
      let index = 0;
      for await (const part of model.stream(req)) {
        if (part.type === 'finish') yield { type: 'finish', response: finish(part.response) };
        else if (part.type === 'tool-call')
          yield { type: 'tool-call', call: cappedCall(part.call, index++, []) };
        else yield part;
      }
    },
  };
}

/** The same models, every answer capped (capResponse); refusals go to `sink`. */
export function capModels(models: ModelSet, sink: RefusedOutputSink): ModelSet {
  return {
    director: capModel(models.director, 'director', sink),
    narrator: capModel(models.narrator, 'narrator', sink),
    npc: capModel(models.npc, 'npc', sink),
  };
}
