// Pass 1, shape: the YAML document's top level and the name → node tables of its macros and events,
// with the names checked as identifiers and every section checked to be a mapping. Nothing is parsed or
// resolved yet; later passes work from these tables.

import { didYouMean } from '../diagnostics-sink.ts';
import { type CompileContext, IDENTIFIER, mapping } from './context.ts';
import { getPair, isMap, isScalar, mapPairs, placeOfNode, type YAMLMap } from '../yaml-nodes.ts';

/** The top-level keys of yare.yaml this engine reads; others are ignored with a warning. */
export const KNOWN_TOP_LEVEL: ReadonlySet<string> = new Set([
  'version',
  'bot_name',
  'state_schema',
  'macros',
  'events',
  'npc_templates',
  'engine_settings',
  'separate_npc',
  'separate_npc_brain',
  'ledger',
]);

/** The document's top level: a mapping, its known keys (others warned about), no prompt directives. */
export function shapeDocument(ctx: CompileContext): YAMLMap | undefined {
  const root = ctx.doc.contents;
  const rootPlace = placeOfNode(ctx.src, root);
  if (root !== null && !isMap(root) && !(isScalar(root) && root.value === null)) {
    ctx.sink.error(
      'YARE_BAD_SCHEMA',
      'yare.yaml must be a mapping with state_schema, macros and events.',
      rootPlace,
    );
  }
  const top = isMap(root) ? root : undefined;
  if (top) {
    for (const { key, pair } of mapPairs(top)) {
      if (key !== 'prompt_directives' && !KNOWN_TOP_LEVEL.has(key)) {
        ctx.sink.warning(
          'YARE_UNKNOWN_KEY',
          `Unknown top-level key '${key}' in yare.yaml is ignored.${didYouMean(key, KNOWN_TOP_LEVEL)}`,
          placeOfNode(ctx.src, pair.key),
        );
      }
    }
    const directives = getPair(top, 'prompt_directives');
    if (directives) {
      ctx.sink.error(
        'YARE_DIRECTIVES_IN_RULES',
        "'prompt_directives' must live in prompt_directives.yaml, not in yare.yaml. Keep yare.yaml purely procedural.",
        placeOfNode(ctx.src, directives.key),
      );
    }
  }
  return top;
}

export function shapeMacros(ctx: CompileContext, node: unknown): void {
  const map = mapping(ctx, node, 'macros must be a mapping of name: expression.');
  if (!map) return;
  for (const { key, pair, value } of mapPairs(map)) {
    if (!IDENTIFIER.test(key)) {
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `Macro name '${key}' must be an identifier.`,
        placeOfNode(ctx.src, pair.key),
      );
      continue;
    }
    ctx.macroNodes.set(key, { node: value });
  }
}

export function shapeEvents(ctx: CompileContext, node: unknown): void {
  const map = mapping(ctx, node, 'events must be a mapping of event name: { steps: [...] }.');
  if (!map) return;
  for (const { key, pair, value } of mapPairs(map)) {
    const place = placeOfNode(ctx.src, pair.key);
    if (!IDENTIFIER.test(key)) {
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `Event name '${key}' must be an identifier (letters, digits, underscores).`,
        place,
      );
      continue;
    }
    if (!isMap(value)) {
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `Event '${key}' must be a mapping with steps:.`,
        placeOfNode(ctx.src, value, place),
      );
      continue;
    }
    ctx.eventNodes.set(key, { node: value, place });
  }
}
