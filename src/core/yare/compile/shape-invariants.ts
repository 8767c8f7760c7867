// Shape pass, invariants: the optional top-level `invariants:` map, name → condition (`@ state.x >= 0`),
// each name an identifier and each condition an `@` expression, parsed here. The check pass
// (check-invariants.ts) resolves what they read; the program carries them for `checkInvariants`.

import type { Diagnostic } from '../../diagnostics.ts';
import { mapPairs, placeOfNode, scalarOf } from '../yaml-nodes.ts';
import { IDENTIFIER } from './context.ts';
import type { RawInvariant, RawTable } from './raw-ast.ts';
import { type ShapeContext, shapeError, shapeMapping, shapeScalarExpression } from './shape-values.ts';

export function shapeInvariants(ctx: ShapeContext, node: unknown): RawTable<RawInvariant> {
  const problems: Diagnostic[] = [];
  const items: RawInvariant[] = [];
  const map = shapeMapping(
    ctx,
    node,
    'invariants must be a mapping of name: condition, e.g. debt_never_negative: "@ state.keeper.debt >= 0".',
    problems,
  );
  for (const { key, pair, value } of map ? mapPairs(map) : []) {
    if (!IDENTIFIER.test(key)) {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `Invariant name '${key}' must be an identifier (letters, digits, underscores).`,
          placeOfNode(ctx.src, pair.key),
        ),
      );
      continue;
    }
    const place = placeOfNode(ctx.src, value, placeOfNode(ctx.src, pair.key));
    const raw = scalarOf(value);
    // A condition is always an expression; plain text would always be true, as a branch test would.
    const expr: RawInvariant['expr'] =
      typeof raw === 'string' && raw.trimStart().startsWith('@')
        ? shapeScalarExpression(ctx, raw, value, false)
        : {
            ok: false,
            problem: shapeError(
              'YARE_NOT_AN_EXPRESSION',
              `Invariant '${key}' must be a condition starting with @, e.g. "@ state.player.hp >= 0"${typeof raw === 'string' ? `; ${JSON.stringify(raw)} is plain text, which would always be true` : ''}.`,
              place,
            ),
          };
    items.push({ name: key, place, expr });
  }
  return { problems, items };
}
