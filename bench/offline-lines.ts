// The offline matcher against labelled player lines (bench/fixtures/offline-lines/<set>.txt): what each
// line meant, in a given state, against what the matcher chose. A set plays a shipped cartridge (named as
// the file), a cartridge of ../shared (`@cartridge shared:seed-eldoria`: content nobody tuned the matcher
// for, skipped when ../shared is absent), or a SillyTavern card imported by the real importer with rules
// an author added (`@cartridge card:kestrel`: cards/kestrel.card.json + cards/kestrel.yare.yaml). The
// bench row (bench/offline-matcher.ts) and the tests (test/turn/offline-lines.test.ts) use it.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Cartridge } from '../src/core/cartridge/index.ts';
import { loadCartridge } from '../src/adapters/files/index.ts';
import { importSillyTavern } from '../src/tools/interop/index.ts';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { chooseOffline, type OfflineChoice } from '../src/engine/turn/offline/choose.ts';
import { costlyEvent } from '../src/engine/turn/offline/actions.ts';
import { knownEntries } from '../src/engine/turn/offline/known.ts';
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

/** Where a set's cartridge comes from (`@cartridge …` on the set's first lines; a shipped one by default). */
export type LineSource =
  | { readonly kind: 'shipped'; readonly name: string }
  | { readonly kind: 'shared'; readonly path: string }
  | { readonly kind: 'card'; readonly name: string };

/** The set's source: its `@cartridge` line, else the shipped cartridge the file is named after. */
export function sourceOf(text: string, name: string): LineSource {
  const header = /^@cartridge (shipped|shared|card):(\S+)\s*$/m.exec(text);
  if (header === null) return { kind: 'shipped', name };
  const [, kind, ref] = header;
  return kind === 'shared'
    ? { kind: 'shared', path: ref! }
    : { kind: kind as 'shipped' | 'card', name: ref! };
}

/** `../shared` beside the project (MNESOS_TEST_SHARED_DIR elsewhere), as the tests find it. */
export const SHARED_DIR = process.env.MNESOS_TEST_SHARED_DIR || resolve(PROJECT_ROOT, '../shared');

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
    if (line === '' || line.startsWith('#') || line.startsWith('@cartridge ')) return;
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
  /** The answer was the list of what can be done, or "nothing like … here". */
  readonly useless: boolean;
}

export interface LineScore {
  readonly cartridge: string;
  readonly lines: number;
  readonly correct: number;
  readonly costlyRuns: number;
  readonly costlyRunsCorrect: number;
  /** Lines asking for an event (or for time to pass), and of them the ones done exactly as meant. */
  readonly clearRequests: number;
  readonly clearDone: number;
  /** Lines that should spend nothing (looking, talking, nonsense, a refusal), and of them the ones that did. */
  readonly freeLines: number;
  readonly freeSpent: number;
  /** Lines answered with a question back. */
  readonly questions: number;
  /** Lines answered with nothing useful: the list of what can be done, or "nothing like … here". */
  readonly nothingUseful: number;
  /** Milliseconds the matcher took for each line, in order. */
  readonly times: readonly number[];
  readonly results: readonly LineResult[];
}

async function loaded(dir: string, what: string): Promise<Cartridge> {
  const result = await loadCartridge(dir);
  if (!result.ok) throw new Error(`${what} does not load: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.cartridge;
}

export async function loadShipped(name: string): Promise<Cartridge> {
  return loaded(resolve(PROJECT_ROOT, 'cartridges', name), `cartridges/${name}`);
}

/** A card imported by the real importer into a temporary folder, with the rules an author added. */
async function loadCard(name: string): Promise<Cartridge> {
  const cardFile = resolve(LINES_DIR, 'cards', `${name}.card.json`);
  const imported = importSillyTavern(readFileSync(cardFile), cardFile);
  const dir = mkdtempSync(join(tmpdir(), `mnesos-card-${name}-`));
  try {
    for (const [file, content] of imported.files) writeFileSync(join(dir, file), content);
    writeFileSync(join(dir, 'yare.yaml'), readFileSync(resolve(LINES_DIR, 'cards', `${name}.yare.yaml`)));
    return await loaded(dir, `the imported card ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether a set can be played here (a shared one needs ../shared). */
export function setAvailable(name: string): boolean {
  const source = sourceOf(readFileSync(resolve(LINES_DIR, `${name}.txt`), 'utf8'), name);
  return source.kind !== 'shared' || existsSync(join(SHARED_DIR, 'cartridges', source.path));
}

export function loadSource(source: LineSource): Promise<Cartridge> {
  switch (source.kind) {
    case 'shipped':
      return loadShipped(source.name);
    case 'shared':
      return loaded(join(SHARED_DIR, 'cartridges', source.path), `../shared/cartridges/${source.path}`);
    case 'card':
      return loadCard(source.name);
    default: {
      const unreachable: never = source;
      return unreachable;
    }
  }
}

/** The sets of labelled lines (file names without `.txt`), sorted. */
export function lineSets(): string[] {
  return readdirSync(LINES_DIR)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4))
    .sort();
}

/** Every labelled line of one set, chosen and compared. */
export async function scoreLines(name: string): Promise<LineScore> {
  const file = resolve(LINES_DIR, `${name}.txt`);
  const text = readFileSync(file, 'utf8');
  const cartridge = await loadSource(sourceOf(text, name));
  const set = parseLineSet(
    text,
    `bench/fixtures/offline-lines/${name}.txt`,
    cartridge.rules.initialState as Dict,
  );
  const tools = directorTools(cartridge);
  const results: LineResult[] = [];
  const times: number[] = [];
  for (const line of set.lines) {
    const state = set.states.get(line.state)!;
    const started = performance.now();
    const choice = chooseOffline(cartridge.rules, tools, line.text, {
      state,
      intentInputs: cartridge.intentInputs,
      lore: cartridge.lore,
      ...(cartridge.firstMessage === undefined ? {} : { opening: cartridge.firstMessage }),
      entries: knownEntries(cartridge.worldInfo),
    });
    times.push(performance.now() - started);
    const got = labelOf(choice);
    const event = choice.kind === 'call' ? cartridge.rules.events.get(choice.name) : undefined;
    const ranCostly =
      choice.kind === 'call' &&
      (choice.name === ADVANCE_GAME_TIME || (event !== undefined && costlyEvent(cartridge.rules, event)));
    const useless =
      got === 'unmatched' ||
      (choice.kind === 'reply' && choice.reason === 'free' && / nothing like /.test(choice.text));
    results.push({ line, got, correct: got === line.expected, ranCostly, useless });
  }
  return summary(name, results, times);
}

/** A label that asks for an event or for time to pass (anything but an answer without a turn). */
export function isRequest(label: string): boolean {
  return !/^(free:|ask$|refused$|unmatched$|help$|unknown$)/.test(label);
}

function summary(name: string, results: readonly LineResult[], times: readonly number[]): LineScore {
  const costly = results.filter((r) => r.ranCostly);
  const requests = results.filter((r) => isRequest(r.line.expected));
  const free = results.filter((r) => !isRequest(r.line.expected));
  return {
    cartridge: name,
    lines: results.length,
    correct: results.filter((r) => r.correct).length,
    costlyRuns: costly.length,
    costlyRunsCorrect: costly.filter((r) => r.correct).length,
    clearRequests: requests.length,
    clearDone: requests.filter((r) => r.correct).length,
    freeLines: free.length,
    freeSpent: free.filter((r) => r.ranCostly).length,
    questions: results.filter((r) => r.got === 'ask').length,
    nothingUseful: results.filter((r) => r.useless && r.line.expected !== 'unmatched').length,
    times,
    results,
  };
}
