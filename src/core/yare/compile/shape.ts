// Shape pass: the parsed yare.yaml document into the raw tree (raw-ast.ts) — the top level and its
// known keys, the macros and events tables with their names checked as identifiers and each section a
// mapping, every macro's expression parsed, every event shaped (shape-events.ts), the settings read
// (shape-settings.ts). It reads only YAML and reports nothing: problems ride on the raw nodes, and the
// check pass reports them in walk order.

import type { Document } from 'yaml';
import type { Diagnostic } from '../../diagnostics.ts';
import { didYouMean } from '../diagnostics-sink.ts';
import { TOP_LEVEL_SHAPE } from '../grammar.ts';
import { keysOf } from '../grammar-shape.ts';
import { getNode, getPair, isMap, isScalar, mapPairs, placeOfNode, type YAMLMap } from '../yaml-nodes.ts';
import { IDENTIFIER } from './context.ts';
import type { RawDocument, RawEvent, RawTable } from './raw-ast.ts';
import { shapeEvent } from './shape-events.ts';
import { shapeMacros } from './shape-macros.ts';
import { shapeInvariants } from './shape-invariants.ts';
import { shapeSettings } from './shape-settings.ts';
import { type ShapeContext, shapeError, shapeMapping, shapeWarning } from './shape-values.ts';

/** The top-level keys of yare.yaml this engine reads (the grammar's); others are ignored with a warning. */
export const KNOWN_TOP_LEVEL: ReadonlySet<string> = new Set(keysOf(TOP_LEVEL_SHAPE));

export function shapeDocument(ctx: ShapeContext, doc: Document.Parsed): RawDocument {
  const problems: Diagnostic[] = [];
  const top = shapeTopLevel(ctx, doc, problems);
  const section = (key: string): unknown => (top ? getNode(top, key) : undefined);
  return {
    problems,
    stateSchema: section('state_schema'),
    macros: shapeMacros(ctx, section('macros')),
    events: shapeEvents(ctx, section('events')),
    invariants: shapeInvariants(ctx, section('invariants')),
    settings: shapeSettings(ctx, top),
  };
}

/** The document's top level: a mapping, its known keys (others warned about), no prompt directives. */
function shapeTopLevel(ctx: ShapeContext, doc: Document.Parsed, problems: Diagnostic[]): YAMLMap | undefined {
  const root = doc.contents;
  const rootPlace = placeOfNode(ctx.src, root);
  if (root !== null && !isMap(root) && !(isScalar(root) && root.value === null)) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        'yare.yaml must be a mapping with state_schema, macros and events.',
        rootPlace,
      ),
    );
  }
  const top = isMap(root) ? root : undefined;
  if (top) {
    for (const { key, pair } of mapPairs(top)) {
      if (key !== 'prompt_directives' && !KNOWN_TOP_LEVEL.has(key)) {
        problems.push(
          shapeWarning(
            'YARE_UNKNOWN_KEY',
            `Unknown top-level key '${key}' in yare.yaml is ignored.${didYouMean(key, KNOWN_TOP_LEVEL)}`,
            placeOfNode(ctx.src, pair.key),
          ),
        );
      }
    }
    const directives = getPair(top, 'prompt_directives');
    if (directives) {
      problems.push(
        shapeError(
          'YARE_DIRECTIVES_IN_RULES',
          "'prompt_directives' must live in prompt_directives.yaml, not in yare.yaml. Keep yare.yaml purely procedural.",
          placeOfNode(ctx.src, directives.key),
        ),
      );
    }
  }
  return top;
}

function shapeEvents(ctx: ShapeContext, node: unknown): RawTable<RawEvent> {
  const problems: Diagnostic[] = [];
  const items: RawEvent[] = [];
  const map = shapeMapping(ctx, node, 'events must be a mapping of event name: { steps: [...] }.', problems);
  for (const { key, pair, value } of map ? mapPairs(map) : []) {
    const place = placeOfNode(ctx.src, pair.key);
    if (!IDENTIFIER.test(key)) {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `Event name '${key}' must be an identifier (letters, digits, underscores).`,
          place,
        ),
      );
      continue;
    }
    if (!isMap(value)) {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `Event '${key}' must be a mapping with steps:.`,
          placeOfNode(ctx.src, value, place),
        ),
      );
      continue;
    }
    items.push(shapeEvent(ctx, key, value, place));
  }
  return { problems, items };
}
