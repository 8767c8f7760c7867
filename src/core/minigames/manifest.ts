// What a mini-game is, for everyone but its player: the settings a cartridge may give it (under
// `_pending_interaction.config`), the result the client sends back, and the hooks. One manifest per game;
// the cartridge loader checks configs against it, `GET /v1/minigames` serves it, and the builder and the
// AI generator read it. Each field's bounds are the limits the game's own logic enforces.

import { isRecord } from '../is-record.ts';

export type ConfigField =
  | {
      readonly kind: 'int' | 'number';
      readonly min: number;
      readonly max: number;
      readonly default?: number;
      readonly required?: boolean;
      readonly description: string;
    }
  | {
      readonly kind: 'text';
      readonly maxChars: number;
      readonly default?: string;
      readonly required?: boolean;
      readonly description: string;
    }
  | {
      readonly kind: 'text_list';
      readonly minItems: number;
      readonly maxItems: number;
      readonly maxChars: number;
      readonly required?: boolean;
      readonly description: string;
    };

/** The kind of a metric's value. `text_list` is a list of strings (the original refused lists). */
export type MetricKind = 'int' | 'number' | 'bool' | 'text' | 'text_list';

export interface MetricSpec {
  readonly name: string;
  readonly kind: MetricKind;
  readonly description: string;
}

export interface MinigameManifest {
  readonly minigame_id: string;
  readonly title: string;
  readonly description: string;
  /** `config.difficulty`: how hard the game is. */
  readonly difficulty: Readonly<Record<string, ConfigField>>;
  /** `config.assets`: what it looks like. */
  readonly assets: Readonly<Record<string, ConfigField>>;
  /** `config.narrative_hooks`: hook name → text shown when it fires (and sent back in `data.triggered_hooks`). */
  readonly hooks: Readonly<Record<string, string>>;
  /** The metrics the client sends with the result (`metrics`), every one always present. */
  readonly metrics: readonly MetricSpec[];
  /** How to play without a mouse and without sight (the web and terminal forms follow it). */
  readonly accessibility: string;
}

/** Characters of a narrative hook's text. */
export const MAX_HOOK_TEXT_CHARS = 200;
/** Items of a list-valued metric (`selected_sequence`), and characters of each. */
export const MAX_METRIC_LIST_ITEMS = 50;

export interface ConfigProblem {
  /** From the config: `['difficulty', 'grid_size']`. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

/** A value computed when the event runs (`"@ …"`), which a load-time check cannot know. */
export function isExpression(value: unknown): boolean {
  return typeof value === 'string' && value.trimStart().startsWith('@');
}

function checkField(
  field: ConfigField,
  value: unknown,
  path: readonly (string | number)[],
  problems: ConfigProblem[],
): void {
  if (value === undefined || value === null) {
    if (field.required) problems.push({ path, message: `is required: ${field.description}` });
    return;
  }
  if (isExpression(value)) return;
  switch (field.kind) {
    case 'int':
    case 'number': {
      const fine =
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (field.kind === 'number' || Number.isInteger(value)) &&
        value >= field.min &&
        value <= field.max;
      if (!fine)
        problems.push({
          path,
          message: `must be ${field.kind === 'int' ? 'an integer' : 'a number'} from ${field.min} to ${field.max}, got ${JSON.stringify(value)}`,
        });
      return;
    }
    case 'text':
      if (typeof value !== 'string' || value.length > field.maxChars)
        problems.push({ path, message: `must be text of at most ${field.maxChars} characters` });
      return;
    case 'text_list': {
      if (!Array.isArray(value) || value.length < field.minItems || value.length > field.maxItems) {
        problems.push({
          path,
          message: `must be a list of ${field.minItems} to ${field.maxItems} texts, got ${Array.isArray(value) ? `${value.length} items` : JSON.stringify(value)}`,
        });
        return;
      }
      value.forEach((item, index) => {
        if (isExpression(item)) return;
        if (typeof item !== 'string' || item.trim() === '' || item.length > field.maxChars)
          problems.push({
            path: [...path, index],
            message: `must be a non-empty text of at most ${field.maxChars} characters`,
          });
      });
      return;
    }
    default: {
      const never: never = field;
      throw new Error(`unknown field kind ${JSON.stringify(never)}`);
    }
  }
}

function checkSection(
  fields: Readonly<Record<string, ConfigField>> | Readonly<Record<string, string>>,
  value: unknown,
  section: string,
  problems: ConfigProblem[],
  kindOf: (name: string) => ConfigField | undefined,
): void {
  if (value === undefined || value === null || isExpression(value)) {
    for (const [name] of Object.entries(fields)) {
      const field = kindOf(name);
      if (field?.required)
        problems.push({ path: [section, name], message: `is required: ${field.description}` });
    }
    return;
  }
  const given = record(value);
  if (!given) {
    problems.push({ path: [section], message: 'must be a mapping' });
    return;
  }
  for (const [name, item] of Object.entries(given)) {
    const field = kindOf(name);
    if (!field) {
      problems.push({
        path: [section, name],
        message: `is not a setting of this mini-game (${section}: ${Object.keys(fields).join(', ') || 'none'})`,
      });
      continue;
    }
    checkField(field, item, [section, name], problems);
  }
  for (const name of Object.keys(fields)) {
    const field = kindOf(name);
    if (field?.required && !(name in given))
      problems.push({ path: [section, name], message: `is required: ${field.description}` });
  }
}

/** Every problem of a `config` value for this mini-game; expressions (`"@ …"`) are taken on trust. */
export function checkMinigameConfig(manifest: MinigameManifest, config: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (config === undefined || config === null) {
    checkSection(manifest.difficulty, undefined, 'difficulty', problems, (n) => manifest.difficulty[n]);
    return problems;
  }
  if (isExpression(config)) return problems;
  const root = record(config);
  if (!root) return [{ path: [], message: 'must be a mapping with difficulty, assets and narrative_hooks' }];
  for (const key of Object.keys(root)) {
    if (key !== 'difficulty' && key !== 'assets' && key !== 'narrative_hooks')
      problems.push({
        path: [key],
        message: 'is not part of a mini-game config (difficulty, assets, narrative_hooks)',
      });
  }
  checkSection(manifest.difficulty, root.difficulty, 'difficulty', problems, (n) => manifest.difficulty[n]);
  checkSection(manifest.assets, root.assets, 'assets', problems, (n) => manifest.assets[n]);
  const hook: ConfigField = { kind: 'text', maxChars: MAX_HOOK_TEXT_CHARS, description: 'hook text' };
  checkSection(manifest.hooks, root.narrative_hooks, 'narrative_hooks', problems, (n) =>
    n in manifest.hooks ? hook : undefined,
  );
  return problems;
}

/** The manifest's config as JSON Schema (for editors and the builder). */
export function configJsonSchema(manifest: MinigameManifest): Record<string, unknown> {
  const section = (fields: Readonly<Record<string, ConfigField>>) => ({
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, fieldSchema(f)])),
    required: Object.entries(fields)
      .filter(([, f]) => f.required)
      .map(([name]) => name),
  });
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      difficulty: section(manifest.difficulty),
      assets: section(manifest.assets),
      narrative_hooks: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(
          Object.entries(manifest.hooks).map(([name, description]) => [
            name,
            { type: 'string', maxLength: MAX_HOOK_TEXT_CHARS, description },
          ]),
        ),
      },
    },
  };
}

function fieldSchema(field: ConfigField): Record<string, unknown> {
  switch (field.kind) {
    case 'int':
    case 'number':
      return {
        type: field.kind === 'int' ? 'integer' : 'number',
        minimum: field.min,
        maximum: field.max,
        ...(field.default === undefined ? {} : { default: field.default }),
        description: field.description,
      };
    case 'text':
      return {
        type: 'string',
        maxLength: field.maxChars,
        ...(field.default === undefined ? {} : { default: field.default }),
        description: field.description,
      };
    case 'text_list':
      return {
        type: 'array',
        minItems: field.minItems,
        maxItems: field.maxItems,
        items: { type: 'string', minLength: 1, maxLength: field.maxChars },
        description: field.description,
      };
    default: {
      const never: never = field;
      throw new Error(`unknown field kind ${JSON.stringify(never)}`);
    }
  }
}

/** How a game stands: every game's state carries one. */
export type GameStatus = 'playing' | 'completed' | 'failed' | 'aborted';

export type ReadConfig<T> =
  | { readonly ok: true; readonly config: T }
  | { readonly ok: false; readonly errors: string[] };

/**
 * The pending interaction's `config`, checked against the manifest and handed to `build` with every
 * absent `difficulty` and `assets` setting at the manifest's default (so each default is written once, in
 * the manifest).
 */
export function readMinigameConfig<T>(
  manifest: MinigameManifest,
  config: unknown,
  build: (
    difficulty: Readonly<Record<string, unknown>>,
    hooks: Readonly<Record<string, string>>,
    assets: Readonly<Record<string, unknown>>,
  ) => T,
): ReadConfig<T> {
  const problems = checkMinigameConfig(manifest, config);
  if (problems.length > 0)
    return { ok: false, errors: problems.map((p) => `config.${p.path.join('.')}: ${p.message}`) };
  const root = record(config);
  const withDefaults = (fields: Readonly<Record<string, ConfigField>>, section: unknown) => {
    const given = record(section);
    return Object.fromEntries(
      Object.entries(fields).map(([name, field]) => [
        name,
        given?.[name] ?? (field.kind === 'text_list' ? undefined : field.default),
      ]),
    );
  };
  const hooks = (root?.narrative_hooks ?? {}) as Record<string, string>;
  return {
    ok: true,
    config: build(
      withDefaults(manifest.difficulty, root?.difficulty),
      hooks,
      withDefaults(manifest.assets, root?.assets),
    ),
  };
}

/** A deterministic generator of numbers in [0, 1) from a seed (mulberry32): the games' only randomness. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
