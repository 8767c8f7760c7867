// What a state can break, checked after every step: the invariants of `invariants:` (checkInvariants, the
// one evaluation play uses too) and every field with a declared `min`/`max`.

import { checkInvariants, type Dict, PyFloat } from '../../../core/yare/index.ts';
import type { Game } from './game.ts';
import type { Finding } from './types.ts';

export function stateFindings(game: Game, state: Dict): Finding[] {
  const findings: Finding[] = [];
  for (const failure of checkInvariants(game.cartridge.rules, state)) {
    findings.push({
      kind: 'invariant',
      key: `invariant:${failure.invariant}`,
      message: failure.message,
      place: failure.place,
      subject: failure.invariant,
      ...(failure.code === undefined ? {} : { code: failure.code }),
    });
  }
  for (const field of game.bounded) {
    const raw = read(state, field.path);
    const value = raw instanceof PyFloat ? raw.value : raw;
    if (typeof value !== 'number') continue;
    const low = field.min !== undefined && value < field.min;
    const high = field.max !== undefined && value > field.max;
    if (!low && !high) continue;
    const range = `[${field.min ?? '-inf'}, ${field.max ?? 'inf'}]`;
    findings.push({
      kind: 'bounds',
      key: `bounds:${field.text}`,
      message: `${field.text} is ${value}, outside its declared range ${range}`,
      place: field.place,
      subject: field.text,
      bounds: {
        ...(field.min === undefined ? {} : { min: field.min }),
        ...(field.max === undefined ? {} : { max: field.max }),
        value,
      },
    });
  }
  return findings;
}

function read(state: Dict, path: readonly string[]): unknown {
  let at: unknown = state;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
