// Pass 4, settings: the top-level entries that are not rules — npc_templates, engine_settings,
// separate_npc and bot_name — each checked for its type.

import type { EngineSettings, NpcTemplate } from '../program.ts';
import { type CompileContext, mapping } from './context.ts';
import { getNode, isMap, mapPairs, placeOfNode, scalarOf, type YAMLMap } from '../yaml-nodes.ts';

export function checkNpcTemplates(ctx: CompileContext, node: unknown): ReadonlyMap<string, NpcTemplate> {
  const out = new Map<string, NpcTemplate>();
  const map = mapping(ctx, node, 'npc_templates must be a YAML mapping.');
  if (!map) return out;
  for (const { key, pair, value } of mapPairs(map)) {
    const place = placeOfNode(ctx.src, pair.key);
    if (!isMap(value)) {
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `npc_templates entry '${key}' must be a mapping with 'type' and 'description'.`,
        place,
      );
      continue;
    }
    const type = scalarOf(getNode(value, 'type'));
    if (type !== 'name' && type !== 'tag') {
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `npc_templates entry '${key}' has invalid type ${JSON.stringify(type ?? null)}. Allowed values: name, tag.`,
        placeOfNode(ctx.src, getNode(value, 'type') ?? value),
      );
      continue;
    }
    const description = scalarOf(getNode(value, 'description'));
    if (typeof description !== 'string') {
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `npc_templates entry '${key}' must have a 'description' string.`,
        place,
      );
      continue;
    }
    const creditNode = getNode(value, 'credit');
    const credit = scalarOf(creditNode);
    if (creditNode !== undefined && (typeof credit !== 'number' || !Number.isInteger(credit))) {
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `npc_templates entry '${key}' credit must be an integer.`,
        placeOfNode(ctx.src, creditNode),
      );
      continue;
    }
    for (const { key: k, pair: p } of mapPairs(value)) {
      if (!['type', 'description', 'credit'].includes(k)) {
        ctx.sink.warning(
          'YARE_UNKNOWN_KEY',
          `npc_templates entry '${key}': unknown key '${k}' is ignored.`,
          placeOfNode(ctx.src, p.key),
        );
      }
    }
    out.set(key, { key, type, description, credit: typeof credit === 'number' ? credit : undefined });
  }
  return out;
}

export function checkEngineSettings(ctx: CompileContext, node: unknown): EngineSettings {
  const settings = { npcMinCreditThreshold: 5, maxBatchedNpcs: 3 };
  const map = mapping(ctx, node, 'engine_settings must be a mapping.');
  if (!map) return settings;
  for (const { key, pair, value } of mapPairs(map)) {
    const v = scalarOf(value);
    const ok = typeof v === 'number' && Number.isInteger(v) && v >= 0;
    if (key === 'npc_min_credit_threshold' && ok) settings.npcMinCreditThreshold = v;
    else if (key === 'max_batched_npcs' && ok && v >= 1) settings.maxBatchedNpcs = v;
    else if (key === 'npc_min_credit_threshold' || key === 'max_batched_npcs') {
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `engine_settings.${key} must be a non-negative integer${key === 'max_batched_npcs' ? ' (at least 1)' : ''}.`,
        placeOfNode(ctx.src, value),
      );
    } else {
      ctx.sink.warning(
        'YARE_UNKNOWN_KEY',
        `engine_settings.${key} is unknown and ignored.`,
        placeOfNode(ctx.src, pair.key),
      );
    }
  }
  return settings;
}

/** `separate_npc` (a boolean) and `bot_name` (non-empty text); returns the bot name when valid. */
export function checkTopLevelSettings(ctx: CompileContext, top: YAMLMap | undefined): string | undefined {
  const separate = top ? getNode(top, 'separate_npc') : undefined;
  if (separate !== undefined && typeof scalarOf(separate) !== 'boolean') {
    ctx.sink.error(
      'YARE_BAD_SCHEMA',
      `separate_npc must be a boolean (true or false), got ${JSON.stringify(scalarOf(separate))}.`,
      placeOfNode(ctx.src, separate),
    );
  }
  const botNameNode = top ? getNode(top, 'bot_name') : undefined;
  const botName = scalarOf(botNameNode);
  if (botNameNode !== undefined && (typeof botName !== 'string' || botName.trim() === '')) {
    ctx.sink.error('YARE_BAD_SCHEMA', 'bot_name must be non-empty text.', placeOfNode(ctx.src, botNameNode));
  }
  return typeof botName === 'string' ? botName : undefined;
}
