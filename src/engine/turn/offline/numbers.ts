// Numbers in offline prose are the record's. A note says what the rules computed ("strikes the player for
// 7 damage, leaving 0 HP"); when a field's bound cut the change short (hp 6 → 0, min 0), the computed
// amount and the change listed beside the prose disagree. The prose then shows both: "7 damage (hp 6 → 0)".

import type { CompiledRules, DomainSchema, FieldSchema, StateChange } from '../../../core/yare/index.ts';

/** A number change that stopped at its field's min or max. */
interface ClampedChange {
  readonly path: readonly string[];
  readonly before: number;
  readonly after: number;
}

function fieldAt(schema: DomainSchema, path: readonly string[]): FieldSchema | undefined {
  let node: DomainSchema = schema;
  for (let i = 0; i < path.length; i++) {
    const child = node.children.get(path[i]!);
    if (child === undefined) return undefined;
    if (child.kind === 'field') return i === path.length - 1 ? child : undefined;
    node = child;
  }
  return undefined;
}

/** The turn's number changes that ended on their field's bound (only these can disagree with a note). */
export function clampedChanges(rules: CompiledRules, changes: readonly StateChange[]): ClampedChange[] {
  const out: ClampedChange[] = [];
  for (const change of changes) {
    if (change.op !== 'set' || typeof change.before !== 'number' || typeof change.after !== 'number')
      continue;
    const field = fieldAt(rules.schema, change.path);
    if (field === undefined) continue;
    if (change.after === field.min || change.after === field.max)
      out.push({ path: change.path, before: change.before, after: change.after });
  }
  return out;
}

const NUMBER_AND_WORD = /\b(\d{1,9})(\s+[A-Za-z]+)?/g;

function wordIn(sentence: string, word: string): boolean {
  return new RegExp(`\\b${word.replace(/[^A-Za-z0-9]/g, '')}\\b`, 'i').test(sentence);
}

/**
 * The sentence with an amount that a bound cut short followed by the change the record holds: a sentence
 * naming the field ("HP") and a number larger than the change that is not the value reached. When two
 * clamped changes could be meant, the group named in the sentence decides; when it cannot, the sentence is
 * left as it is rather than pinned to the wrong one.
 */
export function withRecordNumbers(sentence: string, clamped: readonly ClampedChange[]): string {
  if (clamped.length === 0) return sentence;
  return sentence.replace(NUMBER_AND_WORD, (whole: string, digits: string, word: string | undefined) => {
    const n = Number(digits);
    let candidates = clamped.filter((c) => {
      const moved = Math.abs(c.after - c.before);
      return n > moved && n !== c.after && n !== c.before && wordIn(sentence, c.path.at(-1)!);
    });
    if (candidates.length > 1)
      candidates = candidates.filter((c) => c.path.length > 1 && wordIn(sentence, c.path[0]!));
    if (candidates.length !== 1) return whole;
    const c = candidates[0]!;
    const name = c.path.slice(-2).join(' ').replaceAll('_', ' ');
    return `${digits}${word ?? ''} (${name} ${c.before} → ${c.after})`;
  });
}
