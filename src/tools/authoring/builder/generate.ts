// The AI generator: the configured model drafts the four files of a cartridge from plain English (or
// changes an existing one), our own checker (the cartridge loader, the same as `mnesos validate`) judges
// the draft, and its `file:line:col` findings go back to the model for repair, for a bounded number of
// rounds. Every round is kept in a transcript. Effects are the caller's: this takes a ChatModel and
// returns the files; it reads and writes nothing. Progress is the generator's events. The server runs it
// whole in a worker thread (src/apps/server/generate/), the CLI in its own process.

import { loadCartridgeFromFiles } from '../../../adapters/files/index.ts';
import type { Diagnostic } from '../../../core/diagnostics.ts';
import type { ChatMessage, ChatModel, ModelRequest } from '../../../adapters/llm/index.ts';
import { DRAFT_FILES, type DraftFileName, type DraftFiles, formatDraft, parseDraftAnswer } from './draft.ts';
import {
  DEFAULT_REPAIR_ROUNDS,
  GENERATE_MAX_OUTPUT_TOKENS,
  MAX_ANSWER_CHARS,
  MAX_LISTED_FINDINGS,
  MAX_REPAIR_ROUNDS,
  MAX_REQUIREMENTS_CHARS,
  MAX_TRANSCRIPT_ANSWER_CHARS,
} from './limits.ts';
import { draftRequest, repairRequest, systemPrompt } from './prompt.ts';

export interface GenerateOptions {
  readonly model: ChatModel;
  /** Plain English: what to make, or (with `existing`) what to change. */
  readonly requirements: string;
  /** A cartridge to change instead of starting from nothing. */
  readonly existing?: DraftFiles;
  /** Repair rounds after the first draft (default DEFAULT_REPAIR_ROUNDS, at most MAX_REPAIR_ROUNDS). */
  readonly repairRounds?: number;
  /** The cartridge name the checker uses when yare.yaml has no bot_name. */
  readonly name?: string;
  readonly signal?: AbortSignal;
}

/** One answer to judge: the model's text (null when it was stopped at MAX_ANSWER_CHARS), over the draft so far. */
export interface JudgeInput {
  readonly answer: string | null;
  readonly files: DraftFiles;
  readonly name: string;
}

/** An answer read and the draft checked: the files after it, and what is wrong with the answer and the draft. */
export interface Judged {
  readonly files: DraftFiles;
  readonly written: DraftFileName[];
  readonly formProblems: string[];
  readonly errors: Diagnostic[];
  readonly warnings: Diagnostic[];
}

export type GenerateEvent =
  | {
      readonly type: 'asking';
      readonly round: number;
      readonly kind: 'draft' | 'repair';
      readonly errors: number;
    }
  | {
      readonly type: 'answered';
      readonly round: number;
      readonly chars: number;
      readonly files: DraftFileName[];
    }
  | {
      readonly type: 'checked';
      readonly round: number;
      readonly errors: readonly Diagnostic[];
      readonly warnings: readonly Diagnostic[];
    };

export interface TranscriptRound {
  readonly round: number;
  readonly kind: 'draft' | 'repair';
  /** What the model was asked this round (after the system prompt). */
  readonly request: string;
  /** The model's answer (cut at MAX_TRANSCRIPT_ANSWER_CHARS; `answerChars` is its real length). */
  readonly answer: string;
  readonly answerChars: number;
  readonly filesWritten: readonly DraftFileName[];
  readonly formProblems: readonly string[];
  readonly errors: readonly Diagnostic[];
  readonly warnings: readonly Diagnostic[];
}

export interface Transcript {
  readonly requirements: string;
  readonly changed: boolean;
  readonly model: string;
  readonly rounds: readonly TranscriptRound[];
  readonly ok: boolean;
}

export interface GenerateResult {
  readonly ok: boolean;
  readonly files: DraftFiles;
  readonly errors: readonly Diagnostic[];
  readonly warnings: readonly Diagnostic[];
  readonly transcript: Transcript;
}

export class GenerateInputError extends Error {
  override readonly name = 'GenerateInputError';
}

export function checkDraft(
  files: DraftFiles,
  name: string,
): { errors: Diagnostic[]; warnings: Diagnostic[] } {
  const map = new Map<string, string>();
  for (const file of DRAFT_FILES) if (files[file] !== undefined) map.set(file, files[file] as string);
  const result = loadCartridgeFromFiles(map, name);
  return result.ok
    ? { errors: [], warnings: result.warnings }
    : { errors: result.errors, warnings: result.warnings };
}

/** Reads an answer into the draft's files and checks them with the loader of `mnesos validate`. */
export function judgeAnswer(input: JudgeInput): Judged {
  let files = input.files;
  let written: DraftFileName[] = [];
  let formProblems: string[];
  if (input.answer === null) {
    formProblems = [
      `the answer ran past ${MAX_ANSWER_CHARS} characters; the limit is ${MAX_ANSWER_CHARS} (MAX_ANSWER_CHARS): the model was stopped there and the answer not read`,
    ];
  } else {
    const parsed = parseDraftAnswer(input.answer);
    formProblems = parsed.problems;
    written = DRAFT_FILES.filter((f) => parsed.files[f] !== undefined);
    files = { ...files, ...parsed.files };
  }
  return { files, written, formProblems, ...checkDraft(files, input.name) };
}

/** Characters of a streamed answer read between two turns of the event loop. */
const YIELD_EVERY_CHARS = 16_384;

/** The model's answer, streamed and stopped once it passes MAX_ANSWER_CHARS (null then). */
async function readAnswer(
  model: ChatModel,
  request: Omit<ModelRequest, 'signal'>,
  signal: AbortSignal | undefined,
): Promise<{ answer: string | null; chars: number }> {
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) stop.abort(signal.reason);
  const parts: string[] = [];
  let chars = 0;
  let sinceYield = 0;
  try {
    for await (const part of model.stream({ ...request, signal: stop.signal })) {
      // A stream whose chunks arrived while the thread was busy is read in microtasks, one after another:
      // the loop is given back every YIELD_EVERY_CHARS, so reading a long answer never holds it (in the
      // server's worker, other generations and a stop message go on meanwhile).
      if (sinceYield >= YIELD_EVERY_CHARS) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (part.type === 'finish') {
        // A model that streamed no deltas still answers in its finish.
        if (chars === 0 && part.response.text !== '') return checkedLength(part.response.text);
        continue;
      }
      if (part.type !== 'text-delta') continue;
      chars += part.text.length;
      sinceYield += part.text.length;
      if (chars > MAX_ANSWER_CHARS) {
        stop.abort(new Error('the answer passed MAX_ANSWER_CHARS'));
        return { answer: null, chars };
      }
      parts.push(part.text);
    }
  } catch (error) {
    // Stopped for its length (not by the caller): what was read is over the cap anyway.
    if (chars > MAX_ANSWER_CHARS && signal?.aborted !== true) return { answer: null, chars };
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return { answer: parts.join(''), chars };
}

function checkedLength(text: string): { answer: string | null; chars: number } {
  return { answer: text.length > MAX_ANSWER_CHARS ? null : text, chars: text.length };
}

export async function* generateCartridge(
  options: GenerateOptions,
): AsyncGenerator<GenerateEvent, GenerateResult> {
  const { requirements, repairs } = checkedGenerateInput(options);
  const name = options.name ?? 'draft';
  const system = systemPrompt();
  const first = draftRequest(requirements, options.existing);
  let files: DraftFiles = { ...(options.existing ?? {}) };
  let checked: { errors: Diagnostic[]; warnings: Diagnostic[] } = { errors: [], warnings: [] };
  let formProblems: string[] = [];
  const rounds: TranscriptRound[] = [];

  for (let round = 1; round <= repairs + 1; round++) {
    const kind = round === 1 ? 'draft' : 'repair';
    const request = round === 1 ? first : repairRequest(checked.errors, formProblems);
    yield { type: 'asking', round, kind, errors: checked.errors.length };
    const { answer, chars } = await readAnswer(
      options.model,
      {
        system,
        messages: roundMessages(round, first, files, request),
        temperature: 0.4,
        maxOutputTokens: GENERATE_MAX_OUTPUT_TOKENS,
      },
      options.signal,
    );
    const judged = judgeAnswer({ answer, files, name });
    files = judged.files;
    formProblems = judged.formProblems;
    checked = { errors: judged.errors, warnings: judged.warnings };
    yield { type: 'answered', round, chars, files: judged.written };
    yield { type: 'checked', round, errors: checked.errors, warnings: checked.warnings };
    rounds.push(transcriptRound(round, kind, request, { answer, chars }, judged));
    if (checked.errors.length === 0 && formProblems.length === 0) break;
  }
  const ok = checked.errors.length === 0 && formProblems.length === 0;
  return {
    ok,
    files,
    errors: checked.errors,
    warnings: checked.warnings,
    transcript: {
      requirements,
      changed: options.existing !== undefined,
      model: options.model.id,
      rounds,
      ok,
    },
  };
}

/** The requirements (trimmed, not empty, within MAX_REQUIREMENTS_CHARS) and the repair rounds (0..MAX_REPAIR_ROUNDS). */
function checkedGenerateInput(options: GenerateOptions): { requirements: string; repairs: number } {
  const requirements = options.requirements.trim();
  if (requirements === '')
    throw new GenerateInputError('the requirements are empty: say what the cartridge is about');
  if (requirements.length > MAX_REQUIREMENTS_CHARS)
    throw new GenerateInputError(
      `the requirements are ${requirements.length} characters; the limit is ${MAX_REQUIREMENTS_CHARS} (MAX_REQUIREMENTS_CHARS)`,
    );
  const repairs = options.repairRounds ?? DEFAULT_REPAIR_ROUNDS;
  if (!Number.isInteger(repairs) || repairs < 0 || repairs > MAX_REPAIR_ROUNDS)
    throw new GenerateInputError(
      `repair rounds must be a whole number from 0 to ${MAX_REPAIR_ROUNDS} (MAX_REPAIR_ROUNDS)`,
    );
  return { requirements, repairs };
}

/**
 * Each round sees the request, the current draft as the model's own answer, and what is wrong with it:
 * the conversation stays the size of one cartridge however many rounds there are.
 */
function roundMessages(round: number, first: string, files: DraftFiles, request: string): ChatMessage[] {
  if (round === 1) return [{ role: 'user', content: first }];
  return [
    { role: 'user', content: first },
    { role: 'assistant', content: formatDraft(files) },
    { role: 'user', content: request },
  ];
}

/** One round of the transcript; the answer is cut at MAX_TRANSCRIPT_ANSWER_CHARS. */
function transcriptRound(
  round: number,
  kind: TranscriptRound['kind'],
  request: string,
  read: { answer: string | null; chars: number },
  judged: Judged,
): TranscriptRound {
  const kept = read.answer ?? '';
  return {
    round,
    kind,
    request,
    answer:
      kept.length > MAX_TRANSCRIPT_ANSWER_CHARS ? `${kept.slice(0, MAX_TRANSCRIPT_ANSWER_CHARS)}…` : kept,
    answerChars: read.chars,
    filesWritten: judged.written,
    formProblems: judged.formProblems,
    errors: judged.errors,
    warnings: judged.warnings,
  };
}

/** The transcript as Markdown, for the folder (what was asked, answered and found, round by round). */
export function transcriptMarkdown(transcript: Transcript): string {
  const out = [
    '# Generation transcript',
    '',
    `Model: ${transcript.model}. Result: ${transcript.ok ? 'valid' : 'still invalid'} after ${transcript.rounds.length} round(s).`,
    '',
    `## ${transcript.changed ? 'Change request' : 'Requirements'}`,
    '',
    transcript.requirements,
  ];
  for (const r of transcript.rounds) {
    out.push('', `## Round ${r.round} (${r.kind})`, '');
    if (r.kind === 'repair') out.push('Asked to fix:', '', '````text', r.request, '````', '');
    out.push(
      `Answer: ${r.answerChars} characters; files written: ${r.filesWritten.join(', ') || 'none'}.`,
      '',
    );
    if (r.formProblems.length > 0) out.push(...r.formProblems.map((p) => `- answer: ${p}`), '');
    out.push(
      r.errors.length === 0
        ? 'The checker found no errors.'
        : `The checker found ${r.errors.length} error(s):`,
    );
    for (const e of r.errors.slice(0, MAX_LISTED_FINDINGS))
      out.push(
        `- \`${e.place ? `${e.place.file}:${e.place.line}:${e.place.col}` : '?'}\` ${e.message} [${e.code}]`,
      );
    if (r.errors.length > MAX_LISTED_FINDINGS)
      out.push(`- … and ${r.errors.length - MAX_LISTED_FINDINGS} more (MAX_LISTED_FINDINGS)`);
    out.push(
      '',
      '<details><summary>The answer</summary>',
      '',
      '````text',
      r.answer,
      '````',
      '',
      '</details>',
    );
  }
  return `${out.join('\n')}\n`;
}
