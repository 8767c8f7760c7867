// Numbers in offline prose are the record's. A note says what the rules computed ("strikes the player for
// 7 damage, leaving 0 HP"); when a field's bound cut the change short (hp 6 → 0, min 0), the computed
// amount and the change listed beside the prose disagree. The prose then shows both, once, beside the
// statement about that field: "7 damage (hp 6 → 0)" — never beside one about another field ("Consumed 10
// mana" stays as it is when hp was cut short; test/engine/turn/offline-numbers.test.ts checks every cartridge).

import type { CompiledRules, DomainSchema, FieldSchema, StateChange } from '../../../core/yare/index.ts';

/** A number change that stopped at its field's min or max. */
interface ClampedChange {
  readonly path: readonly string[];
  readonly before: number;
  readonly after: number;
}

/** The field at a path of the schema, or undefined when the path names a group or nothing. */
export function fieldAt(schema: DomainSchema, path: readonly string[]): FieldSchema | undefined {
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
/** Where one statement ends inside a note: a sentence's end, or a separator ("HP: 100 | Mana: 40"). */
const CLAUSE_END = /(?<=[.!?;|])\s+/;

function wordIn(sentence: string, word: string): boolean {
  return new RegExp(`\\b${word.replace(/[^A-Za-z0-9]/g, '')}\\b`, 'i').test(sentence);
}

/** The leaf field names of a schema, lower case ("hp", "mana", "gold"). */
export function fieldNames(schema: DomainSchema): ReadonlySet<string> {
  const out = new Set<string>();
  const walk = (node: DomainSchema) => {
    for (const child of node.children.values())
      if (child.kind === 'domain') walk(child);
      else out.add(child.name.toLowerCase());
  };
  walk(schema);
  return out;
}

/**
 * A note with an amount that a bound cut short followed by the change the record holds, each change at
 * most once (`shown` keeps the ones already shown this turn). The amount must be in a statement (a
 * sentence, or a part between `|` or `;`) that names the field ("Restored 20 HP"), be larger than the
 * change and not the value reached, and not be counted in another field ("Consumed 10 mana" is mana,
 * whatever else the note says). When two clamped changes could be meant, the group named in the statement
 * decides; when it cannot, the statement is left as it is rather than pinned to the wrong one.
 */
export function withRecordNumbers(
  note: string,
  clamped: readonly ClampedChange[],
  fields: ReadonlySet<string> = new Set(),
  shown: Set<ClampedChange> = new Set(),
): string {
  if (clamped.length === 0) return note;
  return note
    .split(CLAUSE_END)
    .map((clause) => annotateClause(clause, clamped, fields, shown))
    .join(' ');
}

function annotateClause(
  clause: string,
  clamped: readonly ClampedChange[],
  fields: ReadonlySet<string>,
  shown: Set<ClampedChange>,
): string {
  return clause.replace(NUMBER_AND_WORD, (whole: string, digits: string, word: string | undefined) => {
    const n = Number(digits);
    const unit = word?.trim().toLowerCase();
    let candidates = clamped.filter((c) => {
      const field = c.path.at(-1)!;
      const moved = Math.abs(c.after - c.before);
      const otherUnit = unit !== undefined && unit !== field.toLowerCase() && fields.has(unit);
      return (
        !shown.has(c) && !otherUnit && n > moved && n !== c.after && n !== c.before && wordIn(clause, field)
      );
    });
    if (candidates.length > 1)
      candidates = candidates.filter((c) => c.path.length > 1 && wordIn(clause, c.path[0]!));
    if (candidates.length !== 1) return whole;
    const c = candidates[0]!;
    shown.add(c);
    const name = c.path.slice(-2).join(' ').replaceAll('_', ' ');
    return `${digits}${word ?? ''} (${name} ${c.before} → ${c.after})`;
  });
}
