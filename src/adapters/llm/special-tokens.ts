// A model whose own vocabulary marks tokens special (ChatModel.specialTokens: a local GGUF's) is sent no
// prompt text that its tokenizer would read as one of them: every string of the request (system prompt,
// messages, tool results) has them neutralised (src/core/text-policy.ts, neutraliseModelTokens) on the
// way in. The list is read at each call, so a model that learns its tokens when it loads is covered from
// its second prompt on; a local model clears its first itself, once loaded (local-gguf/model.ts). Every
// model goes through here (providers.ts, createModels).

import { neutraliseModelTokens } from '../../core/text-policy.ts';
import type { ChatMessage, ChatModel, ModelRequest } from './types.ts';

/** The request with the model's special tokens neutralised in every text it carries. */
export function requestWithoutModelTokens(
  req: ModelRequest,
  tokens: readonly string[] | undefined,
): ModelRequest {
  if (tokens === undefined || tokens.length === 0) return req;
  const clean = (text: string) => neutraliseModelTokens(text, tokens);
  const messages = req.messages.map((m): ChatMessage => ({ ...m, content: clean(m.content) }));
  return { ...req, system: clean(req.system), messages };
}

/** `model`, sending every request through requestWithoutModelTokens with its own special tokens. */
export function withModelTokensNeutralised(model: ChatModel): ChatModel {
  const guarded: ChatModel = {
    get id() {
      return model.id;
    },
    get decoding() {
      return model.decoding;
    },
    get specialTokens() {
      return model.specialTokens;
    },
    generate: (req) => model.generate(requestWithoutModelTokens(req, model.specialTokens)),
    stream: (req) => model.stream(requestWithoutModelTokens(req, model.specialTokens)),
  };
  return guarded;
}
