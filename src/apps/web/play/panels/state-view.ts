// The state panel's model: the player-facing state laid out by the cartridge schema. A number with both
// `min` and `max` is a bar; other numbers, text, flags (booleans), lists and nested groups are shown as
// they are. Keys starting with `_` are engine plumbing (`_pending_interaction`) and are left out. Bounds come
// only from the schema (`GET /v1/sessions/:id/schema`): the client does not guess a bar from names such as
// `hp` beside `max_hp`, since the cartridge author says which numbers are bounded.

import type { SchemaFieldView } from '../../../contract/index.ts';
import { isRecord } from '../../../../core/is-record.ts';

/** A public schema field as the server describes it (JSON; the compiled schema itself holds Maps). */
export type { SchemaFieldView };

/** Entries shown per group and items per list; the rest is summarised as "… N more". */
export const MAX_PANEL_ENTRIES = 200;
/** Nested groups shown; a mapping deeper than that is summarised as JSON text. */
export const MAX_PANEL_DEPTH = 6;
/** Characters of JSON text shown for a value too deep to lay out. */
export const MAX_PANEL_TEXT_CHARS = 300;

export type PanelEntry =
  | {
      readonly kind: 'bar';
      readonly key: string;
      readonly path: string;
      readonly value: number;
      readonly min: number;
      readonly max: number;
    }
  | { readonly kind: 'number'; readonly key: string; readonly path: string; readonly value: number }
  | { readonly kind: 'text'; readonly key: string; readonly path: string; readonly value: string }
  | { readonly kind: 'flag'; readonly key: string; readonly path: string; readonly value: boolean }
  | {
      readonly kind: 'list';
      readonly key: string;
      readonly path: string;
      readonly items: readonly string[];
      readonly more: number;
    }
  | {
      readonly kind: 'group';
      readonly key: string;
      readonly path: string;
      readonly entries: readonly PanelEntry[];
      readonly more: number;
    };

function shortJson(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_PANEL_TEXT_CHARS ? `${text.slice(0, MAX_PANEL_TEXT_CHARS)}…` : text;
}

/** Fields by dotted path, null-prototype (paths are cartridge text). */
export function fieldIndex(fields: readonly SchemaFieldView[]): Map<string, SchemaFieldView> {
  const index = new Map<string, SchemaFieldView>();
  for (const field of fields) index.set(field.path.join('.'), field);
  return index;
}

export function statePanel(state: unknown, fields: readonly SchemaFieldView[] = []): PanelEntry[] {
  if (!isRecord(state)) return [];
  return entriesOf(state, [], fieldIndex(fields), 0).entries;
}

function entriesOf(
  value: Record<string, unknown>,
  path: readonly string[],
  index: ReadonlyMap<string, SchemaFieldView>,
  depth: number,
): { entries: PanelEntry[]; more: number } {
  const keys = Object.keys(value).filter((k) => !k.startsWith('_'));
  const entries: PanelEntry[] = [];
  for (const key of keys.slice(0, MAX_PANEL_ENTRIES)) {
    entries.push(entryOf(key, value[key], [...path, key], index, depth));
  }
  return { entries, more: Math.max(0, keys.length - MAX_PANEL_ENTRIES) };
}

function entryOf(
  key: string,
  value: unknown,
  path: readonly string[],
  index: ReadonlyMap<string, SchemaFieldView>,
  depth: number,
): PanelEntry {
  const dotted = path.join('.');
  const field = index.get(dotted);
  if (typeof value === 'number') {
    if (field?.min !== undefined && field.max !== undefined && field.max > field.min) {
      return { kind: 'bar', key, path: dotted, value, min: field.min, max: field.max };
    }
    return { kind: 'number', key, path: dotted, value };
  }
  if (typeof value === 'boolean') return { kind: 'flag', key, path: dotted, value };
  if (typeof value === 'string') return { kind: 'text', key, path: dotted, value };
  if (Array.isArray(value)) {
    return {
      kind: 'list',
      key,
      path: dotted,
      items: value.slice(0, MAX_PANEL_ENTRIES).map(shortJson),
      more: Math.max(0, value.length - MAX_PANEL_ENTRIES),
    };
  }
  if (isRecord(value) && depth < MAX_PANEL_DEPTH) {
    const { entries, more } = entriesOf(value, path, index, depth + 1);
    return { kind: 'group', key, path: dotted, entries, more };
  }
  return { kind: 'text', key, path: dotted, value: shortJson(value) };
}

/** 0–100: where a bar's value sits between its bounds (clamped: state may be out of bounds). */
export function barPercent(entry: {
  readonly value: number;
  readonly min: number;
  readonly max: number;
}): number {
  const span = entry.max - entry.min;
  if (!(span > 0)) return 0;
  return Math.round(Math.min(1, Math.max(0, (entry.value - entry.min) / span)) * 100);
}

/** A readable label from a state key (`max_hp` → `max hp`). */
export function labelOf(key: string): string {
  return key.replace(/_/g, ' ');
}
