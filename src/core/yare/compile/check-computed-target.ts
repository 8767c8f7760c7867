// Check pass, computed targets: a `var:` path with computed keys, `state.objs[inputs.obj].loc`, read as a
// chain of names and `[key]`s from `state` or `temp`. Its keys are checked as any operand; under `state`
// its names are checked against the schema now, a key standing for any record of a collection (or any key
// of a dict or list field), so a misspelt property is an error before play, not on the turn that writes it.

import type { SourcePlace } from '../../diagnostics.ts';
import type { Expr, Expression } from '../expr/ast.ts';
import type { DomainSchema, FieldSchema, SchemaNode, Target, TargetPart } from '../program.ts';
import { unknownProperty } from '../schema-records.ts';
import { undeclaredPathMessage } from '../schema.ts';
import { placeAtOffset } from '../yaml-nodes.ts';
import { type CheckContext, reportShapeProblem } from './context.ts';
import type { RawTarget } from './raw-ast.ts';

type Link =
  | { readonly kind: 'name'; readonly name: string; readonly start: number }
  | { readonly kind: 'key'; readonly node: Expr };

/** `checkKey` checks a key's expression as any operand of the step (check-values.ts). */
export function checkComputedTarget(
  ctx: CheckContext,
  raw: Extract<RawTarget, { kind: 'computed' }>,
  where: string,
  checkKey: (key: Expression, base: number | undefined, place: SourcePlace) => void,
): Target | undefined {
  if (!raw.expr.ok) {
    reportShapeProblem(ctx, raw.expr.problem);
    return undefined;
  }
  const expr = raw.expr.expr;
  const at = (start: number): SourcePlace =>
    expr.base === undefined ? expr.place : placeAtOffset(ctx.src, expr.base + start);
  const links: Link[] = [];
  let node = expr.ast;
  for (; node.kind === 'attribute' || node.kind === 'index'; node = node.object) {
    links.unshift(
      node.kind === 'attribute'
        ? { kind: 'name', name: node.name, start: node.span.end - node.name.length }
        : { kind: 'key', node: node.index },
    );
  }
  if (node.kind !== 'name' || (node.name !== 'state' && node.name !== 'temp') || links.length === 0) {
    ctx.sink.error(
      'YARE_BAD_STEP',
      `${where}.var '${raw.text}' must be a path from state. or temp., with names and [keys]: state.objs[inputs.obj].loc.`,
      expr.place,
    );
    return undefined;
  }
  const parts: TargetPart[] = [];
  for (const link of links) {
    if (link.kind === 'name') {
      parts.push({ kind: 'name', name: link.name });
      continue;
    }
    const key = { source: expr.source, offset: expr.offset, ast: link.node };
    checkKey(key, expr.base, expr.place);
    parts.push({ kind: 'key', key: { kind: 'expr', expr: key, place: expr.place } });
  }
  if (node.name === 'state') {
    const problem = statePartsProblem(ctx.schema, links);
    if (problem !== undefined) {
      ctx.sink.error('YARE_UNKNOWN_PATH', `${where}.var: ${problem.message}`, at(problem.start));
      return undefined;
    }
  }
  return { kind: 'computed', root: node.name, parts, text: raw.text };
}

/** What is wrong with the names of a `state.` path whose keys may be anything, and where; undefined if nothing. */
function statePartsProblem(
  schema: DomainSchema,
  links: readonly Link[],
): { message: string; start: number } | undefined {
  let node: SchemaNode = schema;
  const named: string[] = [];
  for (let i = 0; i < links.length; i++) {
    const link = links[i]!;
    const start = link.kind === 'name' ? link.start : link.node.span.start;
    if (node.kind === 'domain') {
      if (link.kind === 'key') {
        return {
          message: `a computed key cannot pick a field of the domain state.${named.join('.')}: name the field.`,
          start,
        };
      }
      const next: SchemaNode | undefined = node.children.get(link.name);
      named.push(link.name);
      if (next === undefined) return { message: undeclaredPathMessage(schema, named), start };
      node = next;
      continue;
    }
    const field: FieldSchema = node;
    if (field.record === undefined) {
      if (field.type === 'list' || field.type === 'dict' || field.type === undefined) return undefined;
      return { message: `state.${named.join('.')} is a ${field.type} field: nothing is inside it.`, start };
    }
    // A record of the collection: this link is its id, the next one of its properties.
    named.push(link.kind === 'name' ? link.name : '*');
    const property = links[i + 1];
    if (property === undefined) return undefined;
    if (property.kind === 'key') return undefined;
    const found = field.record.properties.get(property.name);
    if (found === undefined)
      return {
        message: `state.${named.join('.')}: ${unknownProperty(field.record, property.name)}`,
        start: property.start,
      };
    named.push(property.name);
    node = found;
    i++;
  }
  return undefined;
}
