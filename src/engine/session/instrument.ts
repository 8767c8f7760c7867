// Timing of model calls for metrics: wraps each role's model so every call reports its duration and
// outcome. The wrapper changes nothing else; the turn engine sees the same responses and errors.

import type { ChatModel, ModelRole, ModelSet } from '../../adapters/llm/index.ts';

export type ModelCallObserver = (role: ModelRole, durationMs: number, ok: boolean) => void;

function timed(model: ChatModel, role: ModelRole, observe: ModelCallObserver, now: () => number): ChatModel {
  return {
    id: model.id,
    async generate(req) {
      const started = now();
      try {
        const response = await model.generate(req);
        observe(role, now() - started, true);
        return response;
      } catch (error) {
        observe(role, now() - started, false);
        throw error;
      }
    },
    async *stream(req) {
      const started = now();
      let ok = false;
      try {
        yield* model.stream(req);
        ok = true;
      } finally {
        observe(role, now() - started, ok);
      }
    },
  };
}

export function timeModels(
  models: ModelSet,
  observe: ModelCallObserver,
  now: () => number = performance.now.bind(performance),
): ModelSet {
  return {
    director: timed(models.director, 'director', observe, now),
    narrator: timed(models.narrator, 'narrator', observe, now),
    npc: timed(models.npc, 'npc', observe, now),
  };
}
