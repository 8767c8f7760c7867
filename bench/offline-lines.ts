// The offline matcher against labelled player lines (bench/fixtures/offline-lines/<set>.txt): what each
// line meant, in a given state, against what the matcher chose. A set plays a shipped cartridge (named as
// the file), a cartridge of ../shared (`@cartridge shared:seed-eldoria`: content nobody tuned the matcher
// for, skipped when ../shared is absent), or a SillyTavern card imported by the real importer with rules
// an author added (`@cartridge card:kestrel`: cards/kestrel.card.json + cards/kestrel.yare.yaml). The
// bench row (bench/offline-matcher.ts) and the tests (test/engine/turn/offline-lines.test.ts) use it.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Cartridge } from '../src/core/cartridge/index.ts';
import { loadCartridge } from '../src/adapters/files/index.ts';
import { importSillyTavern } from '../src/tools/interop/index.ts';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { chooseOffline, type OfflineChoice } from '../src/engine/turn/offline/choose.ts';
import { costlyEvent } from '../src/engine/turn/offline/actions.ts';
import { toldNothing } from '../src/engine/turn/offline/free.ts';
import { knownEntries } from '../src/engine/turn/offline/known.ts';
import { ADVANCE_GAME_TIME, directorTools } from '../src/engine/turn/tools.ts';
import type { StoryMessage } from '../src/engine/turn/types.ts';
import { type Dict, toValue } from '../src/core/yare/index.ts';

export const LINES_DIR = resolve(PROJECT_ROOT, 'bench/fixtures/offline-lines');

export interface LabelledLine {
  readonly line: number;
  readonly state: string;
  /** The story told before the line (`<state>+<story>`), for pronouns and "again"; none when absent. */
  readonly story?: string;
  readonly expected: string;
  readonly text: string;
}

export interface LineSet {
  readonly states: ReadonlyMap<string, Dict>;
  /** `@story NAME [{"role": "user"|"assistant", "content": "…"}, …]`: what was said before, oldest first. */
  readonly stories: ReadonlyMap<string, readonly StoryMessage[]>;
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

function parseStory(json: string, where: string): StoryMessage[] {
  const parsed = JSON.parse(json) as unknown;
  const ok =
    Array.isArray(parsed) &&
    parsed.every(
      (m) =>
        typeof m === 'object' &&
        m !== null &&
        (m.role === 'user' || m.role === 'assistant') &&
        typeof m.content === 'string',
    );
  if (!ok)
    throw new Error(`${where}: a story is a JSON array of {"role": "user"|"assistant", "content": "…"}`);
  return parsed as StoryMessage[];
}

export function parseLineSet(text: string, file: string, initial: Dict): LineSet {
  const states = new Map<string, Dict>();
  const stories = new Map<string, readonly StoryMessage[]>();
  const lines: LabelledLine[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('@cartridge ')) return;
    const directive = /^@(state|story) (\S+) (.*)$/.exec(line);
    if (directive !== null) {
      const [, kind, name, json] = directive as unknown as [string, string, string, string];
      if (kind === 'state') states.set(name, merged(initial, JSON.parse(json)) as Dict);
      else stories.set(name, parseStory(json, `${file}:${i + 1}`));
      return;
    }
    const parts = line.split(' | ');
    if (parts.length !== 3)
      throw new Error(`${file}:${i + 1}: want "<state>[+<story>] | <expected> | <line>"`);
    const [where, expected, said] = parts as [string, string, string];
    const [state, story] = where.split('+') as [string, string | undefined];
    if (!states.has(state)) throw new Error(`${file}:${i + 1}: unknown state '${state}'`);
    if (story !== undefined && !stories.has(story))
      throw new Error(`${file}:${i + 1}: unknown story '${story}'`);
    lines.push({ line: i + 1, state, ...(story === undefined ? {} : { story }), expected, text: said });
  });
  return { states, stories, lines };
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

/**
 * Whether the choice is what the label expects: the label itself, and when it ends in `~words`, those words
 * in the answer (a reply's text, a call's notice): `free:talk~Mother Hesk` for "ask her about it".
 */
export function meets(expected: string, got: string, choice: OfflineChoice): boolean {
  const at = expected.indexOf('~');
  if (at < 0) return got === expected;
  const shown = choice.kind === 'reply' ? choice.text : (choice.notice ?? '');
  return got === expected.slice(0, at) && shown.includes(expected.slice(at + 1));
}

export interface LineResult {
  readonly line: LabelledLine;
  readonly got: string;
  readonly correct: boolean;
  /** The matcher ran something that costs (an event writing the state, or `wait`). */
  readonly ranCostly: boolean;
  /** The answer was the list of what can be done, or "nothing like … here" with no scene after it. */
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
  /** Lines answered with nothing useful: the list of what can be done, or only "nothing like … here". */
  readonly nothingUseful: number;
  /** Milliseconds the matcher took for each line, in order: on the clock, and of this process's CPU. */
  readonly times: readonly number[];
  readonly cpuTimes: readonly number[];
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

/** The cartridge a set plays, loaded. */
export function loadSet(name: string): Promise<Cartridge> {
  return loadSource(sourceOf(readFileSync(resolve(LINES_DIR, `${name}.txt`), 'utf8'), name));
}

/**
 * Every labelled line of one set, chosen and compared; on `loaded` (the set's cartridge already loaded, as
 * a server keeps it between turns) when given, else on a fresh load.
 */
export async function scoreLines(name: string, loaded?: Cartridge): Promise<LineScore> {
  const file = resolve(LINES_DIR, `${name}.txt`);
  const text = readFileSync(file, 'utf8');
  const cartridge = loaded ?? (await loadSource(sourceOf(text, name)));
  const set = parseLineSet(
    text,
    `bench/fixtures/offline-lines/${name}.txt`,
    cartridge.rules.initialState as Dict,
  );
  const tools = directorTools(cartridge);
  const results: LineResult[] = [];
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (const line of set.lines) {
    // A fresh copy of the state, as a turn gets it: nothing is remembered from the lines before.
    const state = toValue(set.states.get(line.state)!) as Dict;
    const story = line.story === undefined ? [] : set.stories.get(line.story)!;
    const previous = story.findLast((m) => m.role === 'user')?.content;
    const context = {
      state,
      intentInputs: cartridge.intentInputs,
      lore: cartridge.lore,
      ...(cartridge.firstMessage === undefined ? {} : { opening: cartridge.firstMessage }),
      entries: knownEntries(cartridge.worldInfo),
      story,
      ...(previous === undefined ? {} : { previous }),
      seed: line.line,
    };
    const cpu = process.cpuUsage();
    const started = performance.now();
    const choice = chooseOffline(cartridge.rules, tools, line.text, context);
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1_000);
    const got = labelOf(choice);
    const event = choice.kind === 'call' ? cartridge.rules.events.get(choice.name) : undefined;
    const ranCostly =
      choice.kind === 'call' &&
      (choice.name === ADVANCE_GAME_TIME || (event !== undefined && costlyEvent(cartridge.rules, event)));
    const useless =
      got === 'unmatched' ||
      (choice.kind === 'reply' && choice.reason === 'free' && toldNothing(choice.text));
    results.push({ line, got, correct: meets(line.expected, got, choice), ranCostly, useless });
  }
  return summary(name, results, times, cpuTimes);
}

/** A label that asks for an event or for time to pass (anything but an answer without a turn). */
export function isRequest(label: string): boolean {
  return !/^(free:|ask$|refused$|unmatched$|help$|unknown$)/.test(label);
}

function summary(
  name: string,
  results: readonly LineResult[],
  times: readonly number[],
  cpuTimes: readonly number[],
): LineScore {
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
    cpuTimes,
    results,
  };
}
