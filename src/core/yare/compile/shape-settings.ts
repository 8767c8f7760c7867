// Shape pass, settings: the top-level entries that are not rules — separate_npc, bot_name,
// npc_templates and engine_settings — each read and checked for its type. They name nothing, so they are
// final here; their problems are reported after the rules', where one walk over the file met them.

import type { Diagnostic } from '../../diagnostics.ts';
import { normaliseName } from '../../text-policy.ts';
import { ENGINE_SETTINGS_SHAPE, NPC_TEMPLATE_SHAPE } from '../grammar.ts';
import type { EngineSettings, NpcTemplate } from '../program.ts';
import { getNode, isMap, mapPairs, placeOfNode, scalarOf, type YAMLMap } from '../yaml-nodes.ts';
import type { RawSettings } from './raw-ast.ts';
import { type ShapeContext, shapeError, shapeMapping, shapeWarning } from './shape-values.ts';

const NPC_TEMPLATE_TYPES: readonly string[] = NPC_TEMPLATE_SHAPE.props.type.enum;
const NPC_TEMPLATE_KEYS: ReadonlySet<string> = new Set(Object.keys(NPC_TEMPLATE_SHAPE.props));
const ENGINE_SETTINGS = ENGINE_SETTINGS_SHAPE.props;
/** The setting each key of the grammar's engine_settings sets. */
const ENGINE_SETTING_OF = {
  npc_min_credit_threshold: 'npcMinCreditThreshold',
  max_batched_npcs: 'maxBatchedNpcs',
} as const satisfies Record<keyof typeof ENGINE_SETTINGS, keyof EngineSettings>;

function isNpcTemplateType(value: unknown): value is NpcTemplate['type'] {
  return typeof value === 'string' && NPC_TEMPLATE_TYPES.includes(value);
}

export function shapeSettings(ctx: ShapeContext, top: YAMLMap | undefined): RawSettings {
  const problems: Diagnostic[] = [];
  const section = (key: string): unknown => (top ? getNode(top, key) : undefined);
  const botName = shapeTopLevelSettings(ctx, top, problems);
  const npcTemplates = shapeNpcTemplates(ctx, section('npc_templates'), problems);
  const engineSettings = shapeEngineSettings(ctx, section('engine_settings'), problems);
  return { problems, botName, npcTemplates, engineSettings };
}

function shapeNpcTemplates(
  ctx: ShapeContext,
  node: unknown,
  problems: Diagnostic[],
): ReadonlyMap<string, NpcTemplate> {
  const out = new Map<string, NpcTemplate>();
  const map = shapeMapping(ctx, node, 'npc_templates must be a YAML mapping.', problems);
  if (!map) return out;
  for (const { key, pair, value } of mapPairs(map)) {
    const place = placeOfNode(ctx.src, pair.key);
    if (!isMap(value)) {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `npc_templates entry '${key}' must be a mapping with 'type' and 'description'.`,
          place,
        ),
      );
      continue;
    }
    const type = scalarOf(getNode(value, 'type'));
    if (!isNpcTemplateType(type)) {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `npc_templates entry '${key}' has invalid type ${JSON.stringify(type ?? null)}. Allowed values: ${NPC_TEMPLATE_TYPES.join(', ')}.`,
          placeOfNode(ctx.src, getNode(value, 'type') ?? value),
        ),
      );
      continue;
    }
    const description = scalarOf(getNode(value, 'description'));
    if (typeof description !== 'string') {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `npc_templates entry '${key}' must have a 'description' string.`,
          place,
        ),
      );
      continue;
    }
    const creditNode = getNode(value, 'credit');
    const credit = scalarOf(creditNode);
    if (creditNode !== undefined && (typeof credit !== 'number' || !Number.isInteger(credit))) {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `npc_templates entry '${key}' credit must be an integer.`,
          placeOfNode(ctx.src, creditNode),
        ),
      );
      continue;
    }
    for (const { key: k, pair: p } of mapPairs(value)) {
      if (!NPC_TEMPLATE_KEYS.has(k)) {
        problems.push(
          shapeWarning(
            'YARE_UNKNOWN_KEY',
            `npc_templates entry '${key}': unknown key '${k}' is ignored.`,
            placeOfNode(ctx.src, p.key),
          ),
        );
      }
    }
    out.set(key, { key, type, description, credit: typeof credit === 'number' ? credit : undefined });
  }
  return out;
}

function shapeEngineSettings(ctx: ShapeContext, node: unknown, problems: Diagnostic[]): EngineSettings {
  const settings = { npcMinCreditThreshold: 5, maxBatchedNpcs: 3 };
  const map = shapeMapping(ctx, node, 'engine_settings must be a mapping.', problems);
  if (!map) return settings;
  for (const { key, pair, value } of mapPairs(map)) {
    if (Object.hasOwn(ENGINE_SETTINGS, key)) {
      const known = key as keyof typeof ENGINE_SETTINGS;
      const v = scalarOf(value);
      const min = ENGINE_SETTINGS[known].min ?? 0;
      if (typeof v === 'number' && Number.isInteger(v) && v >= min) {
        settings[ENGINE_SETTING_OF[known]] = v;
        continue;
      }
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `engine_settings.${key} must be a non-negative integer${min > 0 ? ` (at least ${min})` : ''}.`,
          placeOfNode(ctx.src, value),
        ),
      );
    } else {
      problems.push(
        shapeWarning(
          'YARE_UNKNOWN_KEY',
          `engine_settings.${key} is unknown and ignored.`,
          placeOfNode(ctx.src, pair.key),
        ),
      );
    }
  }
  return settings;
}

/** `separate_npc` (a boolean) and `bot_name` (non-empty text); returns the bot name when valid. */
function shapeTopLevelSettings(
  ctx: ShapeContext,
  top: YAMLMap | undefined,
  problems: Diagnostic[],
): string | undefined {
  const separate = top ? getNode(top, 'separate_npc') : undefined;
  if (separate !== undefined && typeof scalarOf(separate) !== 'boolean') {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        `separate_npc must be a boolean (true or false), got ${JSON.stringify(scalarOf(separate))}.`,
        placeOfNode(ctx.src, separate),
      ),
    );
  }
  const botNameNode = top ? getNode(top, 'bot_name') : undefined;
  const botName = scalarOf(botNameNode);
  if (botNameNode !== undefined && (typeof botName !== 'string' || botName.trim() === '')) {
    problems.push(
      shapeError('YARE_BAD_SCHEMA', 'bot_name must be non-empty text.', placeOfNode(ctx.src, botNameNode)),
    );
  }
  if (typeof botName !== 'string' || botName.trim() === '') return undefined;
  // The cartridge's name in a library: one normal form (src/core/names.ts).
  const named = normaliseName(botName);
  if (!named.ok) {
    problems.push(
      shapeError('YARE_BAD_SCHEMA', `bot_name: ${named.message}.`, placeOfNode(ctx.src, botNameNode!)),
    );
    return undefined;
  }
  return named.name;
}
