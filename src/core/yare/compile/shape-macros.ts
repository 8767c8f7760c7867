// Shape pass, macros: each entry of `macros:` read into a raw macro — an expression string (the leading
// `@` optional, as the seed's template writes it), or a macro with parameters (grammar.ts,
// MACRO_FUNCTION_SHAPE): its parameter names checked, its `value:`, `by:` and `cases:` expressions parsed.
// Nothing is resolved here: resolve-macros.ts checks what the expressions read.

import type { Diagnostic, SourcePlace } from '../../diagnostics.ts';
import { didYouMean } from '../diagnostics-sink.ts';
import { MACRO_FUNCTION_SHAPE } from '../grammar.ts';
import { keysOf } from '../grammar-shape.ts';
import { MAX_MACRO_PARAMS } from '../limits.ts';
import { RESERVED_NAMES } from '../schema.ts';
import { getNode, isMap, isSeq, mapPairs, placeOfNode, scalarOf, type YAMLMap } from '../yaml-nodes.ts';
import { IDENTIFIER } from './context.ts';
import type { RawExpression, RawMacro, RawMacroCase, RawTable } from './raw-ast.ts';
import { type ShapeContext, shapeError, shapeMapping, shapeScalarExpression } from './shape-values.ts';

const FUNCTION_KEYS: readonly string[] = keysOf(MACRO_FUNCTION_SHAPE);

export function shapeMacros(ctx: ShapeContext, node: unknown): RawTable<RawMacro> {
  const problems: Diagnostic[] = [];
  const items: RawMacro[] = [];
  const map = shapeMapping(ctx, node, 'macros must be a mapping of name: expression.', problems);
  for (const { key, pair, value } of map ? mapPairs(map) : []) {
    if (!IDENTIFIER.test(key)) {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `Macro name '${key}' must be an identifier.`,
          placeOfNode(ctx.src, pair.key),
        ),
      );
      continue;
    }
    const place = placeOfNode(ctx.src, value);
    if (isMap(value)) {
      items.push(shapeMacroFunction(ctx, key, value, place));
      continue;
    }
    const raw = scalarOf(value);
    // A macro is always an expression: the leading `@` is optional (the seed's template omits it).
    const expr: RawExpression =
      typeof raw === 'string'
        ? shapeScalarExpression(ctx, raw, value, true)
        : {
            ok: false,
            problem: shapeError(
              'YARE_NOT_AN_EXPRESSION',
              `Macro '${key}' must be an expression string, e.g. "@ roll(1d20) + 2", or a mapping with params:.`,
              place,
            ),
          };
    items.push({ kind: 'plain', name: key, place, expr });
  }
  return { problems, items };
}

/** An expression field of a macro with parameters (`value:`, `by:`, a case), `@` optional. */
function expressionField(ctx: ShapeContext, node: unknown, what: string): RawExpression {
  const raw = scalarOf(node);
  if (typeof raw === 'string') return shapeScalarExpression(ctx, raw, node, true);
  return {
    ok: false,
    problem: shapeError(
      'YARE_NOT_AN_EXPRESSION',
      `${what} must be an expression string.`,
      placeOfNode(ctx.src, node),
    ),
  };
}

function shapeMacroFunction(ctx: ShapeContext, name: string, node: YAMLMap, place: SourcePlace): RawMacro {
  const problems: Diagnostic[] = [];
  for (const { key, pair } of mapPairs(node)) {
    if (!FUNCTION_KEYS.includes(key)) {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `macros.${name}: unknown key '${key}'. A macro with parameters has ${FUNCTION_KEYS.join(', ')}.${didYouMean(key, FUNCTION_KEYS)}`,
          placeOfNode(ctx.src, pair.key),
        ),
      );
    }
  }
  const paramRecords = new Map<string, { path: string; place: SourcePlace }>();
  const params = shapeParams(ctx, name, getNode(node, 'params'), place, problems, paramRecords);
  const valueNode = getNode(node, 'value');
  const byNode = getNode(node, 'by');
  const casesNode = getNode(node, 'cases');
  const value = valueNode === undefined ? undefined : expressionField(ctx, valueNode, `macros.${name}.value`);
  const by = byNode === undefined ? undefined : expressionField(ctx, byNode, `macros.${name}.by`);
  const cases = casesNode === undefined ? [] : shapeCases(ctx, name, casesNode, problems);
  if (byNode === undefined && casesNode !== undefined)
    problems.push(
      shapeError('YARE_BAD_SCHEMA', `macros.${name}: cases: needs by:, the kind to dispatch on.`, place),
    );
  if (byNode !== undefined && casesNode === undefined)
    problems.push(
      shapeError('YARE_BAD_SCHEMA', `macros.${name}: by: needs cases:, a value for each kind.`, place),
    );
  if (valueNode === undefined && casesNode === undefined)
    problems.push(shapeError('YARE_BAD_SCHEMA', `macros.${name} needs value: (or by: and cases:).`, place));
  return { kind: 'function', name, place, params, paramRecords, value, by, cases, problems };
}

/**
 * `params:`: names, or `name: state.path` for a parameter holding a record of that collection (its
 * properties are then checked in the body), as in `params: [o: state.objs, n]`.
 */
function shapeParams(
  ctx: ShapeContext,
  name: string,
  node: unknown,
  place: SourcePlace,
  problems: Diagnostic[],
  records: Map<string, { path: string; place: SourcePlace }>,
): string[] {
  if (!isSeq(node)) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        `macros.${name}.params must be a list of names, as params: [o].`,
        placeOfNode(ctx.src, node, place),
      ),
    );
    return [];
  }
  const params: string[] = [];
  for (const item of node.items) {
    const typed = isMap(item) && item.items.length === 1 ? mapPairs(item)[0] : undefined;
    const param = typed === undefined ? scalarOf(item) : typed.key;
    const at = placeOfNode(ctx.src, item, place);
    if (typed !== undefined) {
      const path = scalarOf(typed.value);
      records.set(typed.key, {
        path: typeof path === 'string' ? path.trim() : '',
        place: placeOfNode(ctx.src, typed.value, at),
      });
    }
    if (typeof param !== 'string' || !IDENTIFIER.test(param)) {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `macros.${name}: a parameter must be an identifier, got ${JSON.stringify(param)}.`,
          at,
        ),
      );
    } else if (RESERVED_NAMES.has(param)) {
      problems.push(
        shapeError(
          'YARE_RESERVED_NAME',
          `macros.${name}: a parameter cannot be named '${param}' (it names the ${param} of the rules).`,
          at,
        ),
      );
    } else if (params.includes(param)) {
      problems.push(
        shapeError('YARE_BAD_SCHEMA', `macros.${name}: the parameter '${param}' is named twice.`, at),
      );
    } else params.push(param);
  }
  if (params.length > MAX_MACRO_PARAMS) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        `macros.${name} has ${params.length} parameters; the limit is ${MAX_MACRO_PARAMS} (MAX_MACRO_PARAMS).`,
        placeOfNode(ctx.src, node, place),
      ),
    );
  }
  return params;
}

/** `cases:`: each key names one kind or several (`"cup, plate"`); a kind may be named once. */
function shapeCases(ctx: ShapeContext, name: string, node: unknown, problems: Diagnostic[]): RawMacroCase[] {
  const map = shapeMapping(
    ctx,
    node,
    `macros.${name}.cases must be a mapping of kind: expression.`,
    problems,
  );
  const seen = new Set<string>();
  const cases: RawMacroCase[] = [];
  for (const { key, pair, value } of map ? mapPairs(map) : []) {
    const place = placeOfNode(ctx.src, pair.key);
    const kinds = key.split(',').map((k) => k.trim());
    if (kinds.some((k) => k === '')) {
      problems.push(
        shapeError('YARE_BAD_SCHEMA', `macros.${name}.cases: '${key}' has an empty kind.`, place),
      );
      continue;
    }
    for (const kind of kinds) {
      if (seen.has(kind))
        problems.push(
          shapeError('YARE_BAD_SCHEMA', `macros.${name}.cases: the kind '${kind}' has two cases.`, place),
        );
      seen.add(kind);
    }
    cases.push({ kinds, place, expr: expressionField(ctx, value, `macros.${name}.cases['${key}']`) });
  }
  return cases;
}
