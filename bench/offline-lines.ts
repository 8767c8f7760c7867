// The offline matcher against labelled player lines (bench/fixtures/offline-lines/<cartridge>.txt): what
// each line meant, in a given state, against what the matcher chose. Pure apart from reading the files;
// the bench row (bench/offline-matcher.ts) and the precision test (test/turn/offline-lines.test.ts) use it.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Cartridge } from '../src/core/cartridge/index.ts';
import { loadCartridge } from '../src/adapters/files/index.ts';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { chooseOffline, type OfflineChoice } from '../src/engine/turn/offline/choose.ts';
import { costlyEvent } from '../src/engine/turn/offline/actions.ts';
import { ADVANCE_GAME_TIME, directorTools } from '../src/engine/turn/tools.ts';
import type { Dict } from '../src/core/yare/index.ts';

export const LINES_DIR = resolve(PROJECT_ROOT, 'bench/fixtures/offline-lines');

export interface LabelledLine {
  readonly line: number;
  readonly state: string;
  readonly expected: string;
  readonly text: string;
}

export interface LineSet {
  readonly states: ReadonlyMap<string, Dict>;
  readonly lines: readonly LabelledLine[];
}

function merged(base: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(patch)) out[k] = merged(out[k], v);
  return out;
}

export function parseLineSet(text: string, file: string, initial: Dict): LineSet {
  const states = new Map<string, Dict>();
  const lines: LabelledLine[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (line.startsWith('@state ')) {
      const rest = line.slice(7);
      const space = rest.indexOf(' ');
      states.set(rest.slice(0, space), merged(initial, JSON.parse(rest.slice(space + 1))) as Dict);
      return;
    }
    const parts = line.split(' | ');
    if (parts.length !== 3) throw new Error(`${file}:${i + 1}: want "<state> | <expected> | <line>"`);
    const [state, expected, said] = parts as [string, string, string];
    if (!states.has(state)) throw new Error(`${file}:${i + 1}: unknown state '${state}'`);
    lines.push({ line: i + 1, state, expected, text: said });
  });
  return { states, lines };
}

/** The choice as the labels write it. */
export function labelOf(choice: OfflineChoice): string {
  if (choice.kind === 'reply') {
    switch (choice.reason) {
      case 'free':
        return `free:${choice.action ?? ''}`;
      case 'question':
        return 'ask';
      case 'refused':
        return 'refused';
      case 'unmatched':
        return 'unmatched';
      default:
        return choice.reason;
    }
  }
  if (choice.name === ADVANCE_GAME_TIME) return 'wait';
  const args = Object.entries(choice.args).map(([k, v]) => ` ${k}=${String(v)}`);
  return `${choice.name}${args.join('')}`;
}

export interface LineResult {
  readonly line: LabelledLine;
  readonly got: string;
  readonly correct: boolean;
  /** The matcher ran something that costs (an event writing the state, or `wait`). */
  readonly ranCostly: boolean;
}

export interface LineScore {
  readonly cartridge: string;
  readonly lines: number;
  readonly correct: number;
  readonly costlyRuns: number;
  readonly costlyRunsCorrect: number;
  readonly results: readonly LineResult[];
}

export async function loadShipped(name: string): Promise<Cartridge> {
  const loaded = await loadCartridge(resolve(PROJECT_ROOT, 'cartridges', name));
  if (!loaded.ok) throw new Error(`cartridges/${name} does not load`);
  return loaded.cartridge;
}

/** Every labelled line of one shipped cartridge, chosen and compared. */
export async function scoreLines(name: string): Promise<LineScore> {
  const cartridge = await loadShipped(name);
  const file = resolve(LINES_DIR, `${name}.txt`);
  const set = parseLineSet(
    readFileSync(file, 'utf8'),
    `bench/fixtures/offline-lines/${name}.txt`,
    cartridge.rules.initialState as Dict,
  );
  const tools = directorTools(cartridge);
  const results: LineResult[] = [];
  for (const line of set.lines) {
    const state = set.states.get(line.state)!;
    const choice = chooseOffline(cartridge.rules, tools, line.text, {
      state,
      intentInputs: cartridge.intentInputs,
      lore: cartridge.lore,
    });
    const got = labelOf(choice);
    const event = choice.kind === 'call' ? cartridge.rules.events.get(choice.name) : undefined;
    const ranCostly =
      choice.kind === 'call' &&
      (choice.name === ADVANCE_GAME_TIME || (event !== undefined && costlyEvent(cartridge.rules, event)));
    results.push({ line, got, correct: got === line.expected, ranCostly });
  }
  const costly = results.filter((r) => r.ranCostly);
  return {
    cartridge: name,
    lines: results.length,
    correct: results.filter((r) => r.correct).length,
    costlyRuns: costly.length,
    costlyRunsCorrect: costly.filter((r) => r.correct).length,
    results,
  };
}
