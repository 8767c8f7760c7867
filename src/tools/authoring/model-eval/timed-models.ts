// Latency per model call, measured where the engine meets the model: the time to the first streamed part
// (text or tool call) and to the finish, per role. A wrapper like llm/usage.ts's meter, so nothing in the
// turn engine knows it is being measured.

import type { ChatModel, ModelRole, ModelSet, ModelStreamPart } from '../../../adapters/llm/index.ts';

export interface CallTiming {
  readonly role: ModelRole;
  /** Milliseconds to the first text delta or tool call; undefined for `generate` and empty streams. */
  readonly firstPartMs?: number;
  readonly totalMs: number;
}

export class CallTimer {
  readonly calls: CallTiming[] = [];
  constructor(readonly now: () => number) {}
}

function timeModel(model: ChatModel, role: ModelRole, timer: CallTimer): ChatModel {
  return {
    id: model.id,
    ...(model.decoding === undefined ? {} : { decoding: model.decoding }),
    async generate(req) {
      const started = timer.now();
      const response = await model.generate(req);
      timer.calls.push({ role, totalMs: timer.now() - started });
      return response;
    },
    async *stream(req) {
      const started = timer.now();
      let first: number | undefined;
      for await (const part of model.stream(req) as AsyncIterable<ModelStreamPart>) {
        if (first === undefined && part.type !== 'finish') first = timer.now() - started;
        if (part.type === 'finish')
          timer.calls.push({
            role,
            totalMs: timer.now() - started,
            ...(first === undefined ? {} : { firstPartMs: first }),
          });
        yield part;
      }
    },
  };
}

export function timeModels(models: ModelSet, timer: CallTimer): ModelSet {
  return {
    director: timeModel(models.director, 'director', timer),
    narrator: timeModel(models.narrator, 'narrator', timer),
    npc: timeModel(models.npc, 'npc', timer),
  };
}
