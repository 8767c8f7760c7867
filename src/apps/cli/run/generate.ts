// The work of `mnesos generate`: choose the model (a --llm-script, else the configured provider; with
// none configured it refuses, exit 1, saying how to configure one), run the generator with its progress on
// stderr, and write the draft and the transcript to the folder. A draft still invalid after the last
// round is written too (exit 1, with its errors), so nothing the model did is lost; a provider failure is
// exit 3 and writes nothing (the folder is left as it was).

import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { prepareFolder, refuseLinkedFolder, writeInside } from '../../../adapters/files/index.ts';
import { formatDiagnostic } from '../../../core/diagnostics.ts';
import { isModelError } from '../../../adapters/llm/index.ts';
import {
  DRAFT_FILES,
  type DraftFiles,
  generateCartridge,
  type GenerateEvent,
  GenerateInputError,
  type GenerateResult,
  type Transcript,
  transcriptMarkdown,
} from '../../../tools/authoring/builder/index.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { chooseModels } from '../play/models.ts';
import { UserError } from '../user-error.ts';

export const TRANSCRIPT_MARKDOWN = 'generation-transcript.md';
export const TRANSCRIPT_JSON = 'generation-transcript.json';

const NO_MODEL =
  'No model is configured, and generating a cartridge needs one. Set MNESOS_LLM_BASE_URL to an ' +
  'OpenAI-compatible server and MNESOS_MODEL to a model it serves (or MNESOS_PROVIDER=openai|anthropic|google ' +
  'with its API key), or give --llm-script FILE. See docs/models.md and docs/studio.md.';

function progress(event: GenerateEvent): string {
  switch (event.type) {
    case 'asking':
      return event.kind === 'draft'
        ? `round ${event.round}: the model drafts the cartridge…`
        : `round ${event.round}: the model repairs ${event.errors} error(s)…`;
    case 'answered':
      return `round ${event.round}: answer of ${event.chars} characters; files: ${event.files.join(', ') || 'none'}`;
    case 'checked':
      return event.errors.length === 0
        ? `round ${event.round}: valid (${event.warnings.length} warning(s))`
        : `round ${event.round}: ${event.errors.length} error(s), first: ${formatDiagnostic(event.errors[0] as never)}`;
    default: {
      const never: never = event;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

async function readExisting(dir: string): Promise<DraftFiles> {
  const files: DraftFiles = {};
  for (const name of DRAFT_FILES) {
    const path = join(dir, name);
    if (existsSync(path)) files[name] = await readFile(path, 'utf8');
  }
  if (files['yare.yaml'] === undefined)
    throw new UserError(`--from ${dir}: no yare.yaml there (the generator changes YAML rules only).`);
  return files;
}

/**
 * The files and the transcripts, through the one safe writer (src/adapters/files/safe-write.ts): no link is
 * followed, and a file already there is replaced only with --force.
 */
function writeOut(folder: string, files: DraftFiles, transcript: Transcript, force: boolean): void {
  prepareFolder(folder);
  for (const name of DRAFT_FILES) {
    const text = files[name];
    if (text !== undefined) writeInside(folder, name, text, { force });
  }
  writeInside(folder, TRANSCRIPT_MARKDOWN, transcriptMarkdown(transcript), { force });
  writeInside(folder, TRANSCRIPT_JSON, `${toJsonText(transcript, 2)}\n`, { force });
}

type GenerateFlags = { from?: string; rounds?: string; llmScript?: string; force?: boolean; json?: boolean };

/** A new folder, or an empty one, or --force; never through a link. */
async function checkOutFolder(folder: string, force: boolean | undefined): Promise<void> {
  refuseLinkedFolder(folder);
  if (existsSync(folder) && !force && (await readdir(folder)).length > 0)
    throw new UserError(
      `${folder} already holds files; choose a new folder, or give --force to write into it.`,
    );
}

/** Runs the generation to its result, each step said on stderr; a model failure names the rounds finished. */
async function driveGeneration(run: ReturnType<typeof generateCartridge>): Promise<GenerateResult> {
  let finished = 0;
  try {
    for (;;) {
      const next = await run.next();
      if (next.done) return next.value;
      process.stderr.write(`${progress(next.value)}\n`);
      if (next.value.type === 'checked') finished++;
    }
  } catch (error) {
    if (error instanceof GenerateInputError) throw new UserError(error.message, EXIT.usage);
    if (isModelError(error)) {
      throw new UserError(
        `The model failed after ${finished} finished round(s): ${error.message}. Nothing was written.`,
        EXIT.provider,
      );
    }
    throw error;
  }
}

/** What was written: valid after n rounds, or still invalid with each error (exit 1). */
function reportGenerated(result: GenerateResult, folder: string, json: boolean | undefined): void {
  const used = result.transcript.rounds.length;
  if (json) {
    process.stdout.write(
      `${toJsonText({ ok: result.ok, folder, rounds: used, errors: result.errors, warnings: result.warnings.length }, 2)}\n`,
    );
  } else if (result.ok) {
    process.stdout.write(
      `ok: wrote ${folder} (valid after ${used} round${used === 1 ? '' : 's'}; the transcript is ${TRANSCRIPT_MARKDOWN}).\n`,
    );
  } else {
    for (const e of result.errors) process.stdout.write(`${formatDiagnostic(e)}\n`);
    process.stdout.write(
      `The draft is still invalid after ${used} round(s); it was written to ${folder} with the transcript, to fix by hand or to generate again with --from.\n`,
    );
  }
  if (!result.ok) process.exitCode = EXIT.user;
}

export async function runGenerate(requirements: string, folder: string, flags: GenerateFlags): Promise<void> {
  const rounds = Number(flags.rounds ?? '3');
  if (!Number.isInteger(rounds))
    throw new UserError(`--rounds must be a whole number, got ${flags.rounds}`, EXIT.usage);
  await checkOutFolder(folder, flags.force);
  const existing = flags.from === undefined ? undefined : await readExisting(flags.from);
  const choice = await chooseModels({ llmScript: flags.llmScript, env: process.env });
  if (choice.models === null) throw new UserError(NO_MODEL, EXIT.user);
  process.stderr.write(`Model: ${choice.description}\n`);
  const result = await driveGeneration(
    generateCartridge({
      model: choice.models.director,
      requirements,
      repairRounds: rounds,
      name: basename(folder),
      ...(existing ? { existing } : {}),
    }),
  );
  writeOut(folder, result.files, result.transcript, flags.force === true);
  reportGenerated(result, folder, flags.json);
}
