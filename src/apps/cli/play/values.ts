// Typed values from what the player typed: `/event` inputs converted to each input's declared type, and
// `/resolve` arguments turned into a mini-game result. The rules and the turn engine check them again;
// this only spares the player JSON quoting (`difficulty=12`, `loud=true`).

import { coerceTypedWord, type InteractionInput, jsonOrText } from '../../../engine/turn/index.ts';
import type { Checked as Result } from '../../../core/result.ts';
import type { EventDef } from '../../../core/yare/index.ts';
import type { CommandArgs } from './commands.ts';

/** `/event NAME key=value…`, or `/event NAME value` for an event with a single input. */
export function eventInputs(event: EventDef, args: CommandArgs): Result<Record<string, unknown>> {
  const inputs: Record<string, unknown> = Object.create(null);
  const specs = [...event.inputs.values()];
  if (args.bare.length > 0) {
    const only = specs.length === 1 ? specs[0] : undefined;
    if (only === undefined || args.pairs.length > 0) {
      return {
        ok: false,
        message: `give the inputs of ${event.name} as key=value (${specs.map((s) => s.name).join(', ') || 'it has none'})`,
      };
    }
    inputs[only.name] = coerceTypedWord(args.bare.join(' '), only.type);
    return { ok: true, value: inputs };
  }
  for (const [key, raw] of args.pairs) {
    const spec = event.inputs.get(key);
    if (spec === undefined) {
      const known = specs.map((s) => s.name).join(', ');
      return { ok: false, message: `${event.name} has no input '${key}' (inputs: ${known || 'none'})` };
    }
    inputs[key] = coerceTypedWord(raw, spec.type);
  }
  return { ok: true, value: inputs };
}

/** A metric as the mini-game protocol wants it: a number, a boolean, or text. */
function metricValue(raw: string): string | number | boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
}

/**
 * `/resolve status=completed moves=12 data.solution=[1,2]`: the pending mini-game's result. `status` is
 * required; `data.KEY=JSON` goes to `data`; every other `key=value` is a metric.
 */
export function interactionFromArgs(minigameId: string, args: CommandArgs): Result<InteractionInput> {
  if (args.bare.length > 0) {
    return { ok: false, message: `unexpected '${args.bare[0]}': write key=value pairs (status=completed)` };
  }
  let status: string | undefined;
  const metrics: Record<string, string | number | boolean> = Object.create(null);
  const data: Record<string, unknown> = Object.create(null);
  for (const [key, raw] of args.pairs) {
    if (key === 'status') status = raw;
    else if (key.startsWith('data.')) data[key.slice('data.'.length)] = jsonOrText(raw);
    else if (key.includes('.')) return { ok: false, message: `'${key}': only data.KEY may have a dot` };
    else metrics[key] = metricValue(raw);
  }
  if (status !== 'completed' && status !== 'failed' && status !== 'aborted') {
    return {
      ok: false,
      message: `give status=completed, status=failed or status=aborted${status === undefined ? '' : ` (not '${status}')`}`,
    };
  }
  return { ok: true, value: { minigame_id: minigameId, status, metrics, data } };
}
