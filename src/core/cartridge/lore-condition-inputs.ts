// What a lore condition reads, found once from its text, so a turn re-evaluates only the conditions whose
// inputs changed since they were last evaluated (lore-conditions.ts): the state paths it names and the ledger
// records it asks for by a written key (`entity('mara')`, `thread('t')`, `fact('f')`, `knows('a', 'f')`,
// `scene()`). An input's value this turn is its token: a state leaf compares by value; a ledger record by
// identity, since the ledger replaces a record instead of editing it (src/core/ledger/apply.ts). A token
// that is a state container (a dict or a list, which may have been built anew) counts as changed every
// turn, and so does a condition that computes a key it asks the ledger for: both are evaluated every turn.

import { getFact, lookup, type World } from '../ledger/index.ts';
import { type Dict, type Expr, isDict, walkExpr } from '../yare/index.ts';

/** One input a condition reads. `text` names it uniquely (the same input of two conditions is read once). */
export type ConditionInput =
  | { readonly kind: 'state'; readonly path: readonly string[]; readonly text: string }
  | { readonly kind: 'entity' | 'thread' | 'fact'; readonly key: string; readonly text: string }
  | { readonly kind: 'scene'; readonly text: string };

/** What a condition reads: its inputs, or `undefined` when it must be evaluated every turn. */
export type ConditionInputs = readonly ConditionInput[] | undefined;

/** A token that never equals anything, itself included: the input counts as changed. */
export const CHANGED: unique symbol = Symbol('changed');

/** `state.a.b['c']` as its constant segments; a computed key keeps what precedes it. */
function statePath(node: Expr): string[] | undefined {
  const path: string[] = [];
  let at: Expr = node;
  for (;;) {
    if (at.kind === 'attribute') {
      path.unshift(at.name);
      at = at.object;
    } else if (at.kind === 'index') {
      if (at.index.kind === 'literal' && typeof at.index.value === 'string') path.unshift(at.index.value);
      else path.length = 0;
      at = at.object;
    } else if (at.kind === 'name') {
      return at.name === 'state' ? path : undefined;
    } else {
      return undefined;
    }
  }
}

function literalKey(node: Expr | undefined): string | undefined {
  return node?.kind === 'literal' && typeof node.value === 'string' ? node.value : undefined;
}

const LEDGER_KEYED = new Set(['entity', 'thread', 'fact']);

/** The inputs of a condition's expression (checked: its names are `state`, comprehension items and calls). */
export function conditionInputs(ast: Expr): ConditionInputs {
  const inputs = new Map<string, ConditionInput>();
  let everyTurn = false;
  const add = (input: ConditionInput) => inputs.set(input.text, input);
  const visit = (node: Expr): boolean | undefined => {
    if (everyTurn) return false;
    const path = statePath(node);
    if (path !== undefined) {
      add({ kind: 'state', path, text: `state:${JSON.stringify(path)}` });
      // The chain's constant part is one input; each key it computes is an expression of its own.
      for (let at: Expr = node; at.kind === 'attribute' || at.kind === 'index'; at = at.object)
        if (at.kind === 'index' && literalKey(at.index) === undefined) walkExpr(at.index, visit);
      return false;
    }
    if (node.kind !== 'call') return undefined;
    if (LEDGER_KEYED.has(node.callee) || node.callee === 'knows') {
      const knows = node.callee === 'knows';
      const key = literalKey(knows ? node.args[1] : node.args[0]);
      const who = knows ? literalKey(node.args[0]) : key;
      if (key === undefined || who === undefined) {
        // A key computed on the state: which record is read changes with it.
        everyTurn = true;
        return false;
      }
      const kind = knows ? 'fact' : (node.callee as 'entity' | 'thread' | 'fact');
      add({ kind, key, text: `${kind}:${key}` });
      // An entity's record says whether it is in the scene.
      if (kind === 'entity') add({ kind: 'scene', text: 'scene' });
    } else if (node.callee === 'scene') add({ kind: 'scene', text: 'scene' });
    return undefined;
  };
  walkExpr(ast, visit);
  return everyTurn ? undefined : [...inputs.values()];
}

/** The input's token on this state and world (CHANGED when it cannot be compared with the last one). */
export function inputToken(input: ConditionInput, state: Dict, world: World): unknown {
  switch (input.kind) {
    case 'state': {
      let node: unknown = state;
      for (const segment of input.path) {
        if (!isDict(node)) return CHANGED;
        if (!Object.hasOwn(node, segment)) return undefined;
        node = node[segment];
      }
      return typeof node === 'object' && node !== null ? CHANGED : node;
    }
    case 'entity':
      return lookup(world.entities, input.key);
    case 'thread':
      return lookup(world.threads, input.key);
    case 'fact':
      return getFact(world, input.key);
    case 'scene':
      return world.scene;
    default: {
      const never: never = input;
      throw new Error(`unknown condition input ${(never as ConditionInput).kind}`);
    }
  }
}
