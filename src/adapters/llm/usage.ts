// Token accounting per role. The turn engine makes one meter per turn and wraps its models with
// `meterModels`, so every finished call is counted without the engine adding anything by hand.

import { MODEL_ROLES, type ChatModel, type ModelRole, type ModelSet, type Usage } from './types.ts';

export interface RoleUsage {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Sum of the cached input tokens that providers reported (0 when none did). */
  readonly cachedInputTokens: number;
}

const ZERO: RoleUsage = Object.freeze({ calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

export class UsageMeter {
  readonly #byRole = new Map<ModelRole, RoleUsage>();

  add(role: ModelRole, usage: Usage): void {
    const before = this.get(role);
    this.#byRole.set(role, {
      calls: before.calls + 1,
      inputTokens: before.inputTokens + usage.inputTokens,
      outputTokens: before.outputTokens + usage.outputTokens,
      cachedInputTokens: before.cachedInputTokens + (usage.cachedInputTokens ?? 0),
    });
  }

  get(role: ModelRole): RoleUsage {
    return this.#byRole.get(role) ?? ZERO;
  }

  /** Every role, including those with no calls (all zeros). */
  byRole(): Record<ModelRole, RoleUsage> {
    return { director: this.get('director'), narrator: this.get('narrator'), npc: this.get('npc') };
  }

  total(): RoleUsage {
    return MODEL_ROLES.map((role) => this.get(role)).reduce(
      (sum, u) => ({
        calls: sum.calls + u.calls,
        inputTokens: sum.inputTokens + u.inputTokens,
        outputTokens: sum.outputTokens + u.outputTokens,
        cachedInputTokens: sum.cachedInputTokens + u.cachedInputTokens,
      }),
      ZERO,
    );
  }
}

function meterModel(model: ChatModel, role: ModelRole, meter: UsageMeter): ChatModel {
  return {
    id: model.id,
    ...(model.decoding === undefined ? {} : { decoding: model.decoding }),
    async generate(req) {
      const response = await model.generate(req);
      meter.add(role, response.usage);
      return response;
    },
    async *stream(req) {
      for await (const part of model.stream(req)) {
        if (part.type === 'finish') meter.add(role, part.response.usage);
        yield part;
      }
    },
  };
}

/** The same models, each adding its usage to `meter` when a call finishes. Failed calls add nothing. */
export function meterModels(models: ModelSet, meter: UsageMeter): ModelSet {
  return {
    director: meterModel(models.director, 'director', meter),
    narrator: meterModel(models.narrator, 'narrator', meter),
    npc: meterModel(models.npc, 'npc', meter),
  };
}
