// Reads a scenario file (`tests/*.yaml`): safe YAML, then the shape check (scenario-shape.ts), then the
// typed model with every step and expectation at its `file:line:col`.

import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import { parseYamlSafely } from '../../../core/cartridge/index.ts';
import type { Diagnostic, SourcePlace } from '../../../core/diagnostics.ts';
import type { ModelScriptInput } from '../../../adapters/llm/index.ts';
import { getNode, type NodeSource, placeOfNode, plainOf } from '../../../core/yare/index.ts';
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
  const root = parsed.doc.contents;
  const src = { file, lineCounter: parsed.lineCounter };
  const shapeProblems = checkShape(root, SCENARIO_FILE, src).filter((d) => d.severity === 'error');
  if (shapeProblems.length > 0) return { ok: false, errors: shapeProblems };
  return new ScenarioFileReader(src).read(root, file);
}

const field = getNode;
const plain = plainOf;
const items = (node: unknown): unknown[] => (isSeq(node) ? node.items : []);
const seedOf = (map: YAMLMap): number | undefined => {
  const node = field(map, 'seed');
  return isScalar(node) ? Number(node.value) : undefined;
};

/** One read of a shape-checked file: every problem is collected (with its place) rather than thrown. */
class ScenarioFileReader {
  readonly errors: Diagnostic[] = [];
  readonly #names = new Set<string>();

  constructor(readonly src: NodeSource) {}

  at(node: unknown): SourcePlace {
    return placeOfNode(this.src, node);
  }

  fail(node: unknown, message: string): void {
    this.errors.push({ severity: 'error', code: 'SCENARIO_BAD_FILE', message, place: this.at(node) });
  }

  read(root: unknown, file: string): ParseScenarioResult {
    if (!isMap(root)) {
      this.fail(root, 'A scenario file is a mapping with scenarios: (and/or properties:).');
      return { ok: false, errors: this.errors };
    }
    const scenarioNodes = items(field(root, 'scenarios'));
    const propertyNodes = items(field(root, 'properties'));
    if (scenarioNodes.length + propertyNodes.length > MAX_SCENARIOS_PER_FILE) {
      this.fail(
        root,
        `More than ${MAX_SCENARIOS_PER_FILE} scenarios and properties in one file (MAX_SCENARIOS_PER_FILE). Split the file.`,
      );
      return { ok: false, errors: this.errors };
    }
    if (scenarioNodes.length + propertyNodes.length === 0)
      this.fail(root, 'The file has no scenarios: and no properties:.');
    const scenarios = scenarioNodes.filter(isMap).map((node) => this.readScenario(node));
    const properties = propertyNodes.filter(isMap).flatMap((node) => this.readProperty(node) ?? []);
    if (this.errors.length > 0) return { ok: false, errors: this.errors };
    return { ok: true, file: { file, scenarios, properties } };
  }

  readScenario(node: YAMLMap): Scenario {
    return {
      name: this.uniqueName(node),
      place: this.at(node),
      seed: seedOf(node) ?? DEFAULT_SEED,
      start: this.readStart(node, 'a scenario'),
      steps: this.readSteps(field(node, 'steps'), node),
      expect: this.readExpectations(field(node, 'expect')),
      transcript: plain(field(node, 'transcript')) === true,
    };
  }

  readProperty(node: YAMLMap): PropertyCheck | undefined {
    const seeds = plain(field(node, 'seeds')) as number[];
    if (!Array.isArray(seeds) || seeds.length !== 2 || seeds[0]! > seeds[1]!) {
      this.fail(field(node, 'seeds'), 'seeds is [first, last] with first <= last, e.g. [1, 200].');
      return undefined;
    }
    const count = seeds[1]! - seeds[0]! + 1;
    if (count > MAX_PROPERTY_SEEDS) {
      this.fail(
        field(node, 'seeds'),
        `${count} seeds; the limit is ${MAX_PROPERTY_SEEDS} (MAX_PROPERTY_SEEDS).`,
      );
      return undefined;
    }
    return {
      name: this.uniqueName(node),
      place: this.at(node),
      seeds: { first: seeds[0]!, last: seeds[1]! },
      start: this.readStart(node, 'a property'),
      steps: this.readSteps(field(node, 'steps'), node),
      always: this.readExpectations(field(node, 'always')),
    };
  }

  uniqueName(node: YAMLMap): string {
    const name = String(plain(field(node, 'name')));
    if (this.#names.has(name))
      this.fail(
        field(node, 'name'),
        `Two scenarios are named '${name}'; names must be unique in a file (blessed transcripts are kept by name).`,
      );
    this.#names.add(name);
    return name;
  }

  readStart(map: YAMLMap, where: string): Start {
    const state = field(map, 'state');
    const save = field(map, 'save');
    if (state !== undefined && save !== undefined) this.fail(map, `${where}: give state or save, not both.`);
    if (save !== undefined && isScalar(save))
      return { kind: 'save', name: String(save.value), place: this.at(save) };
    if (state !== undefined) return { kind: 'state', state: (plain(state) ?? {}) as Record<string, unknown> };
    return { kind: 'defaults' };
  }

  readSteps(node: unknown, owner: unknown): ScenarioStep[] {
    const list = items(node);
    if (list.length > MAX_SCENARIO_STEPS) {
      this.fail(node, `${list.length} steps; the limit is ${MAX_SCENARIO_STEPS} (MAX_SCENARIO_STEPS).`);
      return [];
    }
    if (list.length === 0) this.fail(node ?? owner, 'steps: is empty; give at least one step.');
    return list.flatMap((n) => this.readStep(n) ?? []);
  }

  readStep(node: unknown): ScenarioStep | undefined {
    if (!isMap(node)) return undefined;
    const kinds = (['event', 'turn', 'minigame'] as const).filter((k) => field(node, k) !== undefined);
    if (kinds.length !== 1) {
      this.fail(
        node,
        `A step has exactly one of event, turn or minigame; this one has ${kinds.length === 0 ? 'none' : kinds.join(' and ')}.`,
      );
      return undefined;
    }
    const common = {
      place: this.at(node),
      seed: seedOf(node),
      expect: this.readExpectations(field(node, 'expect')),
    };
    const script = scriptOf(node);
    switch (kinds[0]!) {
      case 'event': {
        if (script)
          this.fail(
            node,
            'director, narrator and npc scripts go with a turn or a minigame step, not an event.',
          );
        const inputs = (plain(field(node, 'inputs')) ?? {}) as Record<string, unknown>;
        return { kind: 'event', ...common, event: String(plain(field(node, 'event'))), inputs };
      }
      case 'turn':
        if (field(node, 'inputs') !== undefined)
          this.fail(node, 'inputs go with an event step; a turn takes the player’s words.');
        return { kind: 'turn', ...common, input: String(plain(field(node, 'turn'))), script };
      case 'minigame':
        return { kind: 'minigame', ...common, result: minigameResultOf(node), script };
    }
  }

  readExpectations(node: unknown): Expectation[] {
    return items(node).flatMap((n) => this.readExpectation(n) ?? []);
  }

  readExpectation(node: unknown): Expectation | undefined {
    if (!isMap(node)) return undefined;
    const kinds = EXPECTATION_KINDS.filter((k) => field(node, k) !== undefined);
    if (kinds.length !== 1) {
      this.fail(
        node,
        `An expectation has exactly one of ${EXPECTATION_KINDS.join(', ')}; this one has ${kinds.length === 0 ? 'none' : kinds.join(' and ')}.`,
      );
      return undefined;
    }
    const kind = kinds[0]!;
    const needsPath = kind === 'equals' || kind === 'between';
    if (needsPath !== (field(node, 'path') !== undefined)) {
      this.fail(
        node,
        needsPath
          ? `'${kind}' needs a path: (e.g. path: state.player.hp).`
          : `path: goes with equals or between, not ${kind}.`,
      );
      return undefined;
    }
    return this.expectationOf(node, kind);
  }

  expectationOf(node: YAMLMap, kind: (typeof EXPECTATION_KINDS)[number]): Expectation | undefined {
    const place = this.at(node);
    const value = (key: string) => plain(field(node, key));
    const path = String(value('path') ?? '');
    switch (kind) {
      case 'equals':
        return { kind, place, path, value: value('equals') ?? null };
      case 'between': {
        const range = value('between') as unknown[];
        if (!Array.isArray(range) || range.length !== 2) {
          this.fail(field(node, 'between'), 'between is a list of two bounds: [low, high].');
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
  }
}

/** The scripted model lines of a turn or minigame step (`director:`, `narrator:`, `npc:`), if any. */
function scriptOf(map: YAMLMap): ModelScriptInput | undefined {
  const roles = ['director', 'narrator', 'npc'] as const;
  if (roles.every((r) => field(map, r) === undefined)) return undefined;
  const script: { director?: unknown[]; narrator?: unknown[]; npc?: unknown[] } = {};
  for (const role of roles) {
    const entries = plain(field(map, role));
    if (entries !== undefined) script[role] = entries as unknown[];
  }
  return script;
}

function minigameResultOf(node: YAMLMap): MinigameResult {
  const m = plain(field(node, 'minigame')) as {
    id: string;
    status: MinigameResult['status'];
    metrics?: MinigameResult['metrics'];
    data?: MinigameResult['data'];
  };
  return {
    minigame_id: m.id,
    status: m.status,
    ...(m.metrics !== undefined ? { metrics: m.metrics } : {}),
    ...(m.data !== undefined ? { data: m.data } : {}),
  };
}
