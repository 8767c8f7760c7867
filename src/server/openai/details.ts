// The optional block appended to the prose for a chat front end, which cannot show the game's panels:
// the turn's dice (notation and total) and the changes to PUBLIC state fields, on one line that starts
// with DETAILS_MARKER so the transcript still matches the stored narration. Private fields never appear.

import type { Cartridge } from '../../cartridge/index.ts';
import { classifyRecord } from '../../session/records.ts';
import type { Turn } from '../../store/repository.ts';
import { publicState } from '../../yare/schema.ts';
import { DETAILS_MARKER } from './conversation.ts';

const MAX_ITEMS = 12;
const MAX_VALUE_CHARS = 40;

function valueText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  const flat = text.replace(/[\]\n\r]/g, ' ');
  return flat.length > MAX_VALUE_CHARS ? `${flat.slice(0, MAX_VALUE_CHARS - 1)}…` : flat;
}

function hasPath(view: unknown, path: readonly string[]): boolean {
  let at: unknown = view;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}

/** `[MnesOS · dice: 1d20 = 14 · hp: 10 → 7]`, or '' when the turn rolled nothing and changed nothing public. */
export function detailsBlock(turn: Turn, cartridge: Cartridge): string {
  const record = classifyRecord(turn.record);
  if (record?.kind !== 'turn') return '';
  const rolls = (record as { rolls?: unknown }).rolls;
  const delta = (record as { delta?: unknown }).delta;
  const items: string[] = [];
  if (Array.isArray(rolls)) {
    for (const roll of rolls.slice(0, MAX_ITEMS)) {
      const r = roll as { dice?: unknown; total?: unknown };
      if (typeof r.dice === 'string' && typeof r.total === 'number')
        items.push(`${valueText(r.dice)} = ${r.total}`);
    }
  }
  const view = publicState(turn.state, cartridge.rules.schema);
  if (Array.isArray(delta)) {
    for (const change of delta) {
      if (items.length >= MAX_ITEMS) break;
      const c = change as { op?: unknown; path?: unknown; before?: unknown; after?: unknown };
      if (!Array.isArray(c.path) || !c.path.every((p) => typeof p === 'string')) continue;
      if (c.op !== 'set' || !hasPath(view, c.path)) continue;
      const name = c.path.join('.');
      items.push(
        c.before === undefined
          ? `${name}: ${valueText(c.after)}`
          : `${name}: ${valueText(c.before)} → ${valueText(c.after)}`,
      );
    }
  }
  return items.length === 0 ? '' : `${DETAILS_MARKER} · ${items.join(' · ')}]`;
}
