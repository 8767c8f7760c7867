// Reads a scenario file (`tests/*.yaml`): safe YAML, then the shape check (scenario-shape.ts), then the
// typed model with every step and expectation at its `file:line:col`.

import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import { parseYamlSafely } from '../../../core/cartridge/index.ts';
import type { Diagnostic, SourcePlace } from '../../../core/diagnostics.ts';
import type { ModelScriptInput } from '../../../adapters/llm/index.ts';
import { mapPairs, placeOfNode } from '../../../core/yare/index.ts';
import { checkShape } from '../schema/check.ts';
import { SCENARIO_FILE } from '../schema/scenario-shape.ts';
import {
  MAX_PROPERTY_SEEDS,
  MAX_SCENARIO_FILE_BYTES,
  MAX_SCENARIO_STEPS,
  MAX_SCENARIOS_PER_FILE,
} from './limits.ts';
import type {
  Expectation,
  MinigameResult,
  PropertyCheck,
  Scenario,
  ScenarioFile,
  ScenarioStep,
  Start,
} from './model.ts';

export type ParseScenarioResult =
  | { readonly ok: true; readonly file: ScenarioFile }
  | { readonly ok: false; readonly errors: Diagnostic[] };

const DEFAULT_SEED = 1;
const EXPECTATION_KINDS = [
  'equals',
  'between',
  'check',
  'note',
  'no_note',
  'narration',
  'refused',
  'not_refused',
  'ran',
  'entity',
  'fact',
  'thread',
] as const;

export function parseScenarioFile(text: string, file: string): ParseScenarioResult {
  const parsed = parseYamlSafely(text, file, { maxBytes: MAX_SCENARIO_FILE_BYTES });
  if (!parsed.ok) return { ok: false, errors: parsed.diagnostics };
  const src = { file, lineCounter: parsed.lineCounter };
  const root = parsed.doc.contents;
  const shapeProblems = checkShape(root, SCENARIO_FILE, src).filter((d) => d.severity === 'error');
  if (shapeProblems.length > 0) return { ok: false, errors: shapeProblems };
  const errors: Diagnostic[] = [];
  const at = (node: unknown): SourcePlace => placeOfNode(src, node);
  const fail = (node: unknown, message: string) =>
    errors.push({ severity: 'error', code: 'SCENARIO_BAD_FILE', message, place: at(node) });

  const scenarios: Scenario[] = [];
  const properties: PropertyCheck[] = [];
  if (!isMap(root)) {
    fail(root, 'A scenario file is a mapping with scenarios: (and/or properties:).');
    return { ok: false, errors };
  }
  const field = (map: YAMLMap, key: string): unknown => mapPairs(map).find((p) => p.key === key)?.value;
  const plain = (node: unknown): unknown =>
    node === undefined || node === null ? undefined : (node as { toJSON(): unknown }).toJSON();
  const items = (node: unknown): unknown[] => (isSeq(node) ? node.items : []);

  const readStart = (map: YAMLMap, where: string): Start => {
    const state = field(map, 'state');
    const save = field(map, 'save');
    if (state !== undefined && save !== undefined) fail(map, `${where}: give state or save, not both.`);
    if (save !== undefined && isScalar(save))
      return { kind: 'save', name: String(save.value), place: at(save) };
    if (state !== undefined) return { kind: 'state', state: (plain(state) ?? {}) as Record<string, unknown> };
    return { kind: 'defaults' };
  };

  const readExpectation = (node: unknown): Expectation | undefined => {
    if (!isMap(node)) return undefined;
    const place = at(node);
    const value = (key: string) => plain(field(node, key));
    const kinds = EXPECTATION_KINDS.filter((k) => field(node, k) !== undefined);
    const hasPath = field(node, 'path') !== undefined;
    if (kinds.length !== 1) {
      fail(
        node,
        `An expectation has exactly one of ${EXPECTATION_KINDS.join(', ')}; this one has ${kinds.length === 0 ? 'none' : kinds.join(' and ')}.`,
      );
      return undefined;
    }
    const kind = kinds[0]!;
    const needsPath = kind === 'equals' || kind === 'between';
    if (needsPath !== hasPath) {
      fail(
        node,
        needsPath
          ? `'${kind}' needs a path: (e.g. path: state.player.hp).`
          : `path: goes with equals or between, not ${kind}.`,
      );
      return undefined;
    }
    const path = String(value('path') ?? '');
    switch (kind) {
      case 'equals':
        return { kind, place, path, value: value('equals') ?? null };
      case 'between': {
        const range = value('between') as unknown[];
        if (!Array.isArray(range) || range.length !== 2) {
          fail(field(node, 'between'), 'between is a list of two bounds: [low, high].');
          return undefined;
        }
        return { kind, place, path, low: range[0] as number | string, high: range[1] as number | string };
      }
      case 'check':
        return { kind, place, expr: String(value('check')) };
      case 'note':
      case 'no_note':
      case 'narration':
        return { kind, place, text: String(value(kind)) };
      case 'refused':
      case 'not_refused':
        return { kind, place, code: String(value(kind)) };
      case 'ran':
        return { kind, place, event: String(value('ran')) };
      case 'entity':
      case 'thread':
        return { kind, place, key: String(value(kind)) };
      case 'fact': {
        const f = value('fact') as { predicate: string; subject?: string; object?: string };
        return {
          kind,
          place,
          predicate: f.predicate,
          ...(f.subject !== undefined ? { subject: f.subject } : {}),
          ...(f.object !== undefined ? { object: f.object } : {}),
        };
      }
    }
  };
  const readExpectations = (node: unknown): Expectation[] =>
    items(node).flatMap((n) => {
      const e = readExpectation(n);
      return e ? [e] : [];
    });

  const scriptOf = (map: YAMLMap): ModelScriptInput | undefined => {
    const roles = ['director', 'narrator', 'npc'] as const;
    if (roles.every((r) => field(map, r) === undefined)) return undefined;
    const script: { director?: unknown[]; narrator?: unknown[]; npc?: unknown[] } = {};
    for (const role of roles) {
      const entries = plain(field(map, role));
      if (entries !== undefined) script[role] = entries as unknown[];
    }
    return script;
  };

  const readStep = (node: unknown): ScenarioStep | undefined => {
    if (!isMap(node)) return undefined;
    const place = at(node);
    const kinds = (['event', 'turn', 'minigame'] as const).filter((k) => field(node, k) !== undefined);
    if (kinds.length !== 1) {
      fail(
        node,
        `A step has exactly one of event, turn or minigame; this one has ${kinds.length === 0 ? 'none' : kinds.join(' and ')}.`,
      );
      return undefined;
    }
    const seedNode = field(node, 'seed');
    const seed = isScalar(seedNode) ? Number(seedNode.value) : undefined;
    const expect = readExpectations(field(node, 'expect'));
    const script = scriptOf(node);
    switch (kinds[0]!) {
      case 'event': {
        if (script)
          fail(node, 'director, narrator and npc scripts go with a turn or a minigame step, not an event.');
        const inputs = (plain(field(node, 'inputs')) ?? {}) as Record<string, unknown>;
        const event = String(plain(field(node, 'event')));
        return { kind: 'event', place, seed, expect, event, inputs };
      }
      case 'turn':
        if (field(node, 'inputs') !== undefined)
          fail(node, 'inputs go with an event step; a turn takes the player’s words.');
        return { kind: 'turn', place, seed, expect, input: String(plain(field(node, 'turn'))), script };
      case 'minigame': {
        const m = plain(field(node, 'minigame')) as {
          id: string;
          status: MinigameResult['status'];
          metrics?: MinigameResult['metrics'];
          data?: MinigameResult['data'];
        };
        const result: MinigameResult = {
          minigame_id: m.id,
          status: m.status,
          ...(m.metrics !== undefined ? { metrics: m.metrics } : {}),
          ...(m.data !== undefined ? { data: m.data } : {}),
        };
        return { kind: 'minigame', place, seed, expect, result, script };
      }
    }
  };
  const readSteps = (node: unknown, owner: unknown): ScenarioStep[] => {
    const list = items(node);
    if (list.length > MAX_SCENARIO_STEPS) {
      fail(node, `${list.length} steps; the limit is ${MAX_SCENARIO_STEPS} (MAX_SCENARIO_STEPS).`);
      return [];
    }
    if (list.length === 0) fail(node ?? owner, 'steps: is empty; give at least one step.');
    return list.flatMap((n) => {
      const s = readStep(n);
      return s ? [s] : [];
    });
  };

  const scenarioNodes = items(field(root, 'scenarios'));
  const propertyNodes = items(field(root, 'properties'));
  if (scenarioNodes.length + propertyNodes.length > MAX_SCENARIOS_PER_FILE) {
    fail(
      root,
      `More than ${MAX_SCENARIOS_PER_FILE} scenarios and properties in one file (MAX_SCENARIOS_PER_FILE). Split the file.`,
    );
    return { ok: false, errors };
  }
  if (scenarioNodes.length + propertyNodes.length === 0)
    fail(root, 'The file has no scenarios: and no properties:.');
  const names = new Set<string>();
  const uniqueName = (node: YAMLMap): string => {
    const name = String(plain(field(node, 'name')));
    if (names.has(name))
      fail(
        field(node, 'name'),
        `Two scenarios are named '${name}'; names must be unique in a file (blessed transcripts are kept by name).`,
      );
    names.add(name);
    return name;
  };
  for (const node of scenarioNodes) {
    if (!isMap(node)) continue;
    const seedNode = field(node, 'seed');
    scenarios.push({
      name: uniqueName(node),
      place: at(node),
      seed: isScalar(seedNode) ? Number(seedNode.value) : DEFAULT_SEED,
      start: readStart(node, 'a scenario'),
      steps: readSteps(field(node, 'steps'), node),
      expect: readExpectations(field(node, 'expect')),
      transcript: plain(field(node, 'transcript')) === true,
    });
  }
  for (const node of propertyNodes) {
    if (!isMap(node)) continue;
    const seeds = plain(field(node, 'seeds')) as number[];
    if (!Array.isArray(seeds) || seeds.length !== 2 || seeds[0]! > seeds[1]!) {
      fail(field(node, 'seeds'), 'seeds is [first, last] with first <= last, e.g. [1, 200].');
      continue;
    }
    const count = seeds[1]! - seeds[0]! + 1;
    if (count > MAX_PROPERTY_SEEDS) {
      fail(field(node, 'seeds'), `${count} seeds; the limit is ${MAX_PROPERTY_SEEDS} (MAX_PROPERTY_SEEDS).`);
      continue;
    }
    properties.push({
      name: uniqueName(node),
      place: at(node),
      seeds: { first: seeds[0]!, last: seeds[1]! },
      start: readStart(node, 'a property'),
      steps: readSteps(field(node, 'steps'), node),
      always: readExpectations(field(node, 'always')),
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, file: { file, scenarios, properties } };
}
