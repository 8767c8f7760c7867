// The Director's free text as another model reads it. The Director sees the whole state and every fact, and
// writes free text others read: the scene context and guidance of `query_npc_intent` (the NPC brain) and the
// scene directives (the Narrator). It is told never to reveal what they may not know; this is the check
// behind that: a value of a field the reader may not see (a private field for the Narrator, one without
// `npc_visibility` for the NPC brain), or the words of a fact the reader does not know (its predicate, its
// value), written out in the text, is replaced by `(hidden)` before the text reaches the reader's prompt.
// It catches what is copied, not what is paraphrased: the guard is the Director's instructions and the
// readers' own views (public state, known facts), this is the second line.

import { factsUnknownTo } from '../../core/ledger/index.ts';
import type { DomainSchema, FieldSchema } from '../../core/yare/index.ts';
import type { TurnContext } from './context.ts';
import { HIDDEN_VALUE } from './private-notes.ts';

/** Shortest text worth hiding: shorter values ("rain", "1d4", "yes") are words any story uses. */
export const MIN_SECRET_CHARS = 5;
/** Smallest number worth hiding (a combination, a sum); smaller ones are counts any story uses. */
export const MIN_SECRET_NUMBER = 1_000;
/** Values and fact words hidden at most per reader; a bounded walk of the state and the facts. */
export const MAX_SECRETS = 200;
/** Facts looked through for ones the reader does not know (newest first). */
const MAX_FACTS_SCANNED = 5_000;

/** Who reads the text: the Narrator (the player character's view) or an NPC (its entity, if the ledger has it). */
export type Reader =
  | { readonly kind: 'narrator' }
  | { readonly kind: 'npc'; readonly entity: string | undefined };

function hiddenFrom(reader: Reader, field: FieldSchema): boolean {
  return reader.kind === 'narrator' ? field.visibility === 'private' : !field.npcVisible;
}

function collectValues(value: unknown, out: Set<string>): void {
  if (out.size >= MAX_SECRETS) return;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.length >= MIN_SECRET_CHARS) out.add(text);
  } else if (typeof value === 'number') {
    if (Number.isFinite(value) && Math.abs(value) >= MIN_SECRET_NUMBER) out.add(String(value));
  } else if (Array.isArray(value)) {
    for (const item of value) collectValues(item, out);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) collectValues(item, out);
  }
}

function walk(schema: DomainSchema, state: unknown, reader: Reader, out: Set<string>): void {
  for (const [name, child] of schema.children) {
    if (out.size >= MAX_SECRETS) return;
    const value =
      typeof state === 'object' && state !== null && Object.hasOwn(state, name)
        ? (state as Record<string, unknown>)[name]
        : undefined;
    if (child.kind === 'domain') walk(child, value, reader, out);
    else if (hiddenFrom(reader, child)) collectValues(value, out);
  }
}

/** Every string and number a reader's view of the state shows (a value it sees is no secret to it). */
function shownValues(schema: DomainSchema, state: unknown, reader: Reader): Set<string> {
  const shown = new Set<string>();
  const see = (s: DomainSchema, v: unknown): void => {
    for (const [name, child] of s.children) {
      const value =
        typeof v === 'object' && v !== null && Object.hasOwn(v, name)
          ? (v as Record<string, unknown>)[name]
          : undefined;
      if (child.kind === 'domain') see(child, value);
      else if (!hiddenFrom(reader, child)) collectValues(value, shown);
    }
  };
  see(schema, state);
  return shown;
}

/** What `reader` may not be told, as written: hidden field values and the words of facts it does not know. */
export function secretsFor(ctx: TurnContext, reader: Reader): string[] {
  const found = new Set<string>();
  walk(ctx.rules.schema, ctx.state, reader, found);
  for (const value of shownValues(ctx.rules.schema, ctx.state, reader)) found.delete(value);
  // The Narrator tells what the player character knows; with no player entity in the ledger it tells every
  // fact (docs/ledger.md), so no fact is withheld from it.
  const viewer = reader.kind === 'narrator' ? ctx.playerEntity : reader.entity;
  if (reader.kind === 'npc' || viewer !== undefined) {
    const unknown = factsUnknownTo(ctx.ledger.world, viewer, { limit: MAX_SECRETS, scan: MAX_FACTS_SCANNED });
    for (const fact of unknown) {
      if (found.size >= MAX_SECRETS) break;
      if (fact.predicate.trim().length >= MIN_SECRET_CHARS) found.add(fact.predicate.trim());
      collectValues(fact.value, found);
    }
  }
  // Longest first, so a secret inside a longer one is hidden with it.
  return [...found].sort((a, b) => b.length - a.length);
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}_]/u.test(c);
}

/**
 * The text with each secret (case-insensitive, as a whole word or phrase) replaced by HIDDEN_VALUE. Each
 * secret is one scan of the text (indexOf), so the work is the text's length times the secrets' count.
 */
export function withSecretsHidden(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    const needle = secret.toLowerCase();
    const lower = out.toLowerCase();
    // Case folding can change a text's length (rare letters); such a text is matched as written instead.
    const hay = lower.length === out.length ? lower : out;
    let result = '';
    let from = 0;
    for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) {
      if (isWordChar(out[at - 1]) || isWordChar(out[at + needle.length])) continue;
      result += out.slice(from, at) + HIDDEN_VALUE;
      from = at + needle.length;
    }
    out = result + out.slice(from);
  }
  return out;
}

/** The Director's text as `reader` may read it. */
export function directorTextFor(ctx: TurnContext, reader: Reader, text: string): string {
  if (text.trim() === '') return text;
  const secrets = secretsFor(ctx, reader);
  return secrets.length === 0 ? text : withSecretsHidden(text, secrets);
}
