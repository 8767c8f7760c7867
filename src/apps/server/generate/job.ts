// One generation as the generator's worker runs it (worker.ts): the generator's loop over a model
// (src/tools/authoring/builder/generate.ts), each answer read and checked right here, its progress turned
// into the stream's small events and its outcome into what the request thread saves and sends. Nothing
// here is big by the time it leaves: findings are cut at MAX_LISTED_FINDINGS (their counts kept whole) and
// the transcript is Markdown already.

import { type ChatModel, isModelError } from '../../../adapters/llm/index.ts';
import { type Diagnostic, formatPlace } from '../../../core/diagnostics.ts';
import {
  type DraftFiles,
  generateCartridge,
  type GenerateEvent,
  GenerateInputError,
  MAX_LISTED_FINDINGS,
  type GenerateResult,
  transcriptMarkdown,
} from '../../../tools/authoring/builder/index.ts';
import type { GeneratorFinding } from '../../contract/index.ts';
import type { GenerationFailure, GenerationJob, GenerationResult, ProgressEvent } from './protocol.ts';

function finding(d: Diagnostic): GeneratorFinding {
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    where: formatPlace(d.place),
    ...(d.place ? { file: d.place.file, line: d.place.line, col: d.place.col } : {}),
  };
}

/** The first MAX_LISTED_FINDINGS findings (a model can make a draft with thousands). */
function findings(list: readonly Diagnostic[]): GeneratorFinding[] {
  return list.slice(0, MAX_LISTED_FINDINGS).map(finding);
}

/** A generator event as the stream sends it. */
export function progressEvent(event: GenerateEvent): ProgressEvent {
  switch (event.type) {
    case 'asking':
      return { event: 'round', data: { round: event.round, kind: event.kind, errors: event.errors } };
    case 'answered':
      return { event: 'answered', data: { round: event.round, chars: event.chars, files: event.files } };
    case 'checked':
      return {
        event: 'checked',
        data: {
          round: event.round,
          errors: findings(event.errors),
          errorCount: event.errors.length,
          warnings: event.warnings.length,
        },
      };
    default: {
      const never: never = event;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

/** A draft's name from generated rules: their bot_name when it is a plain short line. */
export function botNameOf(yare: string | undefined): string | undefined {
  const line = yare?.split('\n').find((l) => l.startsWith('bot_name:'));
  const value = line
    ?.slice('bot_name:'.length)
    .trim()
    .replace(/^["']|["']$/g, '');
  return value && value.length <= 100 && /^[\p{L}\p{N} .,'!?&-]+$/u.test(value) ? value : undefined;
}

export function resultOf(result: GenerateResult, base: DraftFiles = {}): GenerationResult {
  const botName = botNameOf(result.files['yare.yaml']);
  return {
    ok: result.ok,
    files: result.files,
    draftFilesJson: JSON.stringify({ ...base, ...result.files }),
    errors: findings(result.errors),
    errorCount: result.errors.length,
    warnings: findings(result.warnings),
    warningCount: result.warnings.length,
    rounds: result.transcript.rounds.length,
    transcript: transcriptMarkdown(result.transcript),
    ...(botName === undefined ? {} : { botName }),
  };
}

/** What ended a generation early, in the stream's words. */
export function failureOf(error: unknown): GenerationFailure {
  if (isModelError(error)) return { code: 'model', message: `the model failed: ${error.message}` };
  if (error instanceof GenerateInputError) return { code: 'invalid_request', message: error.message };
  return { code: 'internal', message: 'the generator failed' };
}

/** Runs one generation to its result, sending its progress; throws what ended it early. */
export async function runGeneration(
  job: GenerationJob,
  model: ChatModel,
  signal: AbortSignal,
  emit: (event: ProgressEvent) => void,
): Promise<GenerationResult> {
  const run = generateCartridge({
    model,
    requirements: job.requirements,
    signal,
    ...(job.rounds === undefined ? {} : { repairRounds: job.rounds }),
    ...(job.existing === undefined ? {} : { existing: job.existing }),
  });
  for (;;) {
    const next = await run.next();
    if (next.done) return resultOf(next.value, job.base);
    emit(progressEvent(next.value));
  }
}
