// A cartridge's test suite: every `tests/*.yaml` scenario file, run against the cartridge, with blessed
// transcripts kept in `tests/transcripts/<file>/<scenario>.txt` and named saves in `tests/saves/NAME.json`.
// This is the shell around the scenario runner: it reads and writes those files.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { writeInside } from '../../adapters/files/index.ts';
import type { Cartridge } from '../../core/cartridge/index.ts';
import type { Diagnostic } from '../../core/diagnostics.ts';
import { TESTS_FOLDER } from './scenario/files.ts';
import { lineDiff } from './text-diff.ts';
import { MAX_SCENARIO_FILE_BYTES, MAX_SCENARIO_FILES } from './scenario/limits.ts';
import { parseScenarioFile } from './scenario/parse.ts';
import { type CaseResult, type Failure, type RunContext, runProperty, runScenario } from './scenario/run.ts';

export { TESTS_FOLDER };

export interface SuiteOptions {
  /** Write observed transcripts as the blessed ones instead of comparing. */
  readonly bless?: boolean;
  /** Run only scenarios and properties whose name (or file name) contains this text. */
  readonly filter?: string;
  /** With `bless`: replace a file at a transcript's place that is not a transcript of that scenario. */
  readonly force?: boolean;
}

export type TranscriptStatus = 'none' | 'match' | 'blessed' | 'missing' | 'differs';

export interface SuiteCase extends CaseResult {
  readonly file: string;
  readonly transcriptStatus: TranscriptStatus;
  /** The readable diff, when the transcript differs from the blessed one. */
  readonly diff?: string;
}

export interface SuiteResult {
  /** Problems with the scenario files themselves (each with file:line:col). */
  readonly fileErrors: readonly Diagnostic[];
  readonly cases: readonly SuiteCase[];
  /** Events no step ran at the top level. */
  readonly eventsNotRun: readonly string[];
}

export function scenarioFiles(cartridgeDir: string): string[] {
  const dir = join(cartridgeDir, TESTS_FOLDER);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const names = readdirSync(dir)
    .filter((n) => n.endsWith('.yaml') || n.endsWith('.yml'))
    .sort();
  return names.map((n) => join(dir, n));
}

export function transcriptPath(cartridgeDir: string, scenarioFile: string, scenarioName: string): string {
  const stem = basename(scenarioFile).replace(/\.ya?ml$/, '');
  return join(cartridgeDir, TESTS_FOLDER, 'transcripts', stem, `${slug(scenarioName)}.txt`);
}

/** A scenario name as a file name: lower case, letters and digits, dashes between words. */
export function slug(name: string): string {
  const words = name.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.join('-').slice(0, 80) || 'scenario';
}

export async function runSuite(
  cartridgeDir: string,
  cartridge: Cartridge,
  options: SuiteOptions = {},
): Promise<SuiteResult> {
  const shown = (path: string) => relative(process.cwd(), path) || path;
  const suite: SuiteRun = {
    cartridgeDir,
    options,
    ctx: { cartridge, readSave: (name) => readSave(cartridgeDir, name) },
    fileErrors: [],
    cases: [],
    ran: new Set<string>(),
  };
  const files = scenarioFiles(cartridgeDir);
  if (files.length > MAX_SCENARIO_FILES) {
    suite.fileErrors.push({
      severity: 'error',
      code: 'SCENARIO_BAD_FILE',
      message: `${files.length} scenario files; the limit is ${MAX_SCENARIO_FILES} (MAX_SCENARIO_FILES)`,
      place: { file: shown(join(cartridgeDir, TESTS_FOLDER)), line: 1, col: 1 },
    });
    return { fileErrors: suite.fileErrors, cases: suite.cases, eventsNotRun: [] };
  }
  for (const path of files) await runScenarioFile(suite, path, shown(path));
  const { fileErrors, cases, ran } = suite;
  return { fileErrors, cases, eventsNotRun: cartridge.rules.eventNames.filter((e) => !ran.has(e)) };
}

/** A suite run so far: the file errors, the cases, and the events any of them ran. */
interface SuiteRun {
  readonly cartridgeDir: string;
  readonly options: SuiteOptions;
  readonly ctx: RunContext;
  readonly fileErrors: Diagnostic[];
  readonly cases: SuiteCase[];
  readonly ran: Set<string>;
}

/** One scenario file's scenarios and properties (those the filter wants), or its errors. */
async function runScenarioFile(suite: SuiteRun, path: string, file: string): Promise<void> {
  const { options } = suite;
  const size = statSync(path).size;
  if (size > MAX_SCENARIO_FILE_BYTES) {
    suite.fileErrors.push({
      severity: 'error',
      code: 'SCENARIO_BAD_FILE',
      message: `the file is ${size} bytes; the limit is ${MAX_SCENARIO_FILE_BYTES} (MAX_SCENARIO_FILE_BYTES)`,
      place: { file, line: 1, col: 1 },
    });
    return;
  }
  const parsed = parseScenarioFile(readFileSync(path, 'utf8'), file);
  if (!parsed.ok) {
    suite.fileErrors.push(...parsed.errors);
    return;
  }
  const wanted = (name: string) =>
    options.filter === undefined || name.includes(options.filter) || file.includes(options.filter);
  for (const scenario of parsed.file.scenarios) {
    if (!wanted(scenario.name)) continue;
    const result = await runScenario(suite.ctx, scenario);
    for (const e of result.eventsRun) suite.ran.add(e);
    suite.cases.push(compareTranscript(suite.cartridgeDir, path, file, result, options));
  }
  for (const property of parsed.file.properties) {
    if (!wanted(property.name)) continue;
    const result = await runProperty(suite.ctx, property);
    for (const e of result.eventsRun) suite.ran.add(e);
    suite.cases.push({ ...result, file, transcriptStatus: 'none' });
  }
}

/** The first line of a text (a transcript's is `# <scenario name>`). */
const firstLine = (text: string): string => text.slice(0, text.indexOf('\n') >>> 0);

/**
 * Writes a blessed transcript through the one safe writer (src/adapters/files/safe-write.ts): no link under
 * the cartridge folder is followed (a cartridge can ship `tests/transcripts` as one), and a file there is
 * replaced only when it is a transcript of the same scenario (its first line names it) or with --force.
 */
function blessTranscript(
  cartridgeDir: string,
  blessedPath: string,
  transcript: string,
  force: boolean,
): void {
  const title = firstLine(transcript);
  writeInside(cartridgeDir, relative(cartridgeDir, blessedPath), transcript, {
    trustFolder: true,
    force,
    owns: (existing) =>
      firstLine(existing.subarray(0, Buffer.byteLength(title) + 1).toString('utf8')) === title,
  });
}

function compareTranscript(
  cartridgeDir: string,
  path: string,
  file: string,
  result: CaseResult,
  options: SuiteOptions,
): SuiteCase {
  if (result.transcript === undefined) return { ...result, file, transcriptStatus: 'none' };
  const blessedPath = transcriptPath(cartridgeDir, path, result.name);
  if (options.bless === true) {
    if (result.failures.length > 0) return { ...result, file, transcriptStatus: 'none' };
    blessTranscript(cartridgeDir, blessedPath, result.transcript, options.force === true);
    return { ...result, file, transcriptStatus: 'blessed' };
  }
  if (!existsSync(blessedPath)) {
    const failure: Failure = {
      place: result.place,
      message: `no blessed transcript at ${relative(process.cwd(), blessedPath)}; run mnesos test --bless to record it`,
    };
    return { ...result, file, failures: [...result.failures, failure], transcriptStatus: 'missing' };
  }
  const blessed = readFileSync(blessedPath, 'utf8');
  if (blessed === result.transcript) return { ...result, file, transcriptStatus: 'match' };
  const failure: Failure = {
    place: result.place,
    message: `the transcript differs from the blessed one (${relative(process.cwd(), blessedPath)}); if the change is intended, run mnesos test --bless`,
  };
  return {
    ...result,
    file,
    failures: [...result.failures, failure],
    transcriptStatus: 'differs',
    diff: lineDiff(blessed, result.transcript),
  };
}

function readSave(
  cartridgeDir: string,
  name: string,
): { ok: true; state: Record<string, unknown> } | { ok: false; message: string } {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name))
    return {
      ok: false,
      message: `save name '${name.slice(0, 80)}' must be letters, digits, - and _ (at most 64)`,
    };
  const path = join(cartridgeDir, TESTS_FOLDER, 'saves', `${name}.json`);
  if (!existsSync(path))
    return { ok: false, message: `no save '${name}': ${relative(process.cwd(), path)} does not exist` };
  const size = statSync(path).size;
  if (size > MAX_SCENARIO_FILE_BYTES)
    return { ok: false, message: `save '${name}' is ${size} bytes; the limit is ${MAX_SCENARIO_FILE_BYTES}` };
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      return { ok: false, message: `save '${name}' must hold a JSON object (a state)` };
    return { ok: true, state: data as Record<string, unknown> };
  } catch (error) {
    return { ok: false, message: `save '${name}' is not valid JSON: ${(error as Error).message}` };
  }
}
