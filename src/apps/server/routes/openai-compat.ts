// An OpenAI-compatible endpoint, so any chat front end (SillyTavern's "Custom (OpenAI-compatible)" source,
// the `openai` SDK) can play a cartridge: `GET /openai/v1/models` lists the caller's cartridges and sessions
// as model ids, `POST /openai/v1/chat/completions` plays turns (streamed as SillyTavern reads them, or as one
// JSON answer). API keys are bearer tokens, as on /v1. The route parses; openai/chat.ts answers
// (docs/sillytavern.md).

import { z } from 'zod';
import { authenticate } from '../auth.ts';
import type { AppDeps } from '../deps.ts';
import type { RouteRegistry } from '../openapi.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';
import { answerChat } from '../openai/chat.ts';
import { withErrorType } from '../openai/errors.ts';
import { ConversationMemory } from '../openai/memory.ts';
import { modelList } from '../openai/models.ts';
import { MAX_TRANSCRIPT_MESSAGES } from '../openai/transcript.ts';
import { rateLimit } from '../rate-limit.ts';

export { RETRY_WINDOW_MS } from '../openai/resolve.ts';
export const OPENAI_PREFIX = '/openai/v1';
/** Model ids listed (cartridges, then sessions). */
export const MAX_LISTED_MODELS = 200;

const chatBody = z.looseObject({
  model: z.string().max(300).optional(),
  messages: z
    .array(
      z.looseObject({
        role: z.string().max(32),
        content: z
          .union([
            z.string(),
            z.array(z.looseObject({ type: z.string().max(64), text: z.string().optional() })),
            z.null(),
          ])
          .optional(),
        name: z.string().max(200).optional(),
      }),
    )
    .min(1)
    .max(MAX_TRANSCRIPT_MESSAGES),
  stream: z.boolean().optional(),
  /** Append the turn's dice and public state changes to the prose. */
  mnesos_details: z.boolean().optional(),
});

const errorSchema = z.object({ error: z.object({ message: z.string(), code: z.string() }).loose() });

const listModels: RouteDefinition = (api, deps) =>
  api.add(
    {
      method: 'get',
      path: `${OPENAI_PREFIX}/models`,
      tag: 'openai',
      summary:
        "OpenAI-compatible model list: the caller's cartridges (by name), then their sessions, most recently played first (`<cartridge> · <title> · last played … · session:<id>`).",
      responses: {
        200: {
          description: 'Models',
          schema: z.object({ object: z.literal('list'), data: z.array(z.unknown()) }),
        },
      },
    },
    async ({ c }) => c.json(await modelList(deps, c.get('principal').id, MAX_LISTED_MODELS)),
  );

/** The chat route, answering through the conversations `memory` keeps between requests. */
function chatCompletions(memory: ConversationMemory): RouteDefinition {
  return (api, deps) =>
    api.add(
      {
        method: 'post',
        path: `${OPENAI_PREFIX}/chat/completions`,
        tag: 'openai',
        summary:
          'OpenAI-compatible chat completion: plays the turn the transcript asks for (new message, swipe, edit, continue); SSE when `stream` is true.',
        body: chatBody,
        responses: {
          200: {
            description: 'A chat.completion, or chat.completion.chunk events ending with [DONE]',
            schema: z.unknown(),
            eventStream: true,
          },
          400: { description: 'Bad request', schema: errorSchema },
          401: { description: 'No or bad API key', schema: errorSchema },
          404: { description: 'No such model (cartridge or session)', schema: errorSchema },
          409: { description: 'A turn is already being played on this conversation', schema: errorSchema },
          413: {
            description: 'The player message is longer than the server’s input limit (`input_too_long`)',
            schema: errorSchema,
          },
        },
      },
      async ({ c, body }) =>
        answerChat(deps, memory, {
          principalId: c.get('principal').id,
          model: body.model ?? '',
          messages: body.messages,
          stream: body.stream === true,
          details: body.mnesos_details === true,
          idempotencyKey: c.req.header('idempotency-key'),
          signal: c.req.raw.signal,
        }),
    );
}

export function registerOpenAiCompatRoutes(api: RouteRegistry, deps: AppDeps): void {
  api.app.use(`${OPENAI_PREFIX}/*`, withErrorType());
  api.app.use(`${OPENAI_PREFIX}/*`, authenticate(deps.auth));
  api.app.use(`${OPENAI_PREFIX}/*`, rateLimit(deps.limits.rateLimit, deps.limits.rateWindowMs));
  registerAll(api, deps, [listModels, chatCompletions(new ConversationMemory())]);
}
