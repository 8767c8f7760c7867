// `POST /v1/builder/generate`: the AI generator (src/tools/authoring/builder/generate.ts) over Server-Sent
// Events, with the caller's models, bounded like a turn (docs/studio.md): admitted per key
// (generate-admission.ts; 429/503 past the queue), each answer read and checked in the checker's worker,
// the model stopped once its answer passes MAX_ANSWER_CHARS, and a stream whose client leaves more than
// MAX_UNREAD_GENERATE_BYTES unread dropped with its model call. Events: `round` (the model is asked: draft
// or repair), `answered`, `checked` (the checker's findings as file:line:col), then `saved` (the draft the
// result was saved as) and `done` with the files, the findings and the transcript, or `error` (the model
// failed, or the client went away).

import { z } from 'zod';
import { isModelError, type ModelSet } from '../../../adapters/llm/index.ts';
import type { Draft, Principal } from '../../../adapters/store/index.ts';
import { type Diagnostic, formatPlace } from '../../../core/diagnostics.ts';
import {
  DRAFT_FILES,
  type DraftFiles,
  draftFilesOf,
  generateCartridge,
  type GenerateEvent,
  type GenerateResult,
  MAX_REPAIR_ROUNDS,
  MAX_REQUIREMENTS_CHARS,
  transcriptMarkdown,
} from '../../../tools/authoring/builder/index.ts';
import { CartridgeCheckError } from '../cartridge-checker.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { GenerateAdmission, type Release } from '../generate-admission.ts';
import type { RouteRegistry } from '../openapi.ts';
import type { GenerateStreamEvent, GeneratorFinding } from '../../contract/index.ts';
import { errorSchema, id, name } from '../schemas.ts';
import { sseResponse } from '../sse.ts';
import { createDraftFor } from './builder-drafts.ts';
import { guarded } from './guard.ts';

const MAX_EXISTING_FILE_CHARS = 2 * 1024 * 1024;
/**
 * Bytes a generation's client may leave unread before its stream is dropped (and its model call cancelled):
 * a client that reads keeps this near zero; one that never reads is found once the socket is full.
 */
export const MAX_UNREAD_GENERATE_BYTES = 64 * 1024;

/** One admission per app (its deps): generations are bounded per key and for the server. */
const admissions = new WeakMap<AppDeps, GenerateAdmission>();
export function generateAdmissionOf(deps: AppDeps): GenerateAdmission {
  let admission = admissions.get(deps);
  if (admission === undefined) {
    admission = new GenerateAdmission();
    admissions.set(deps, admission);
  }
  return admission;
}

const generateBody = z.strictObject({
  requirements: z.string().min(1).max(MAX_REQUIREMENTS_CHARS),
  rounds: z.number().int().min(0).max(MAX_REPAIR_ROUNDS).optional(),
  /** A draft to change: the four files by name (yare.yaml required). */
  existing: z
    .partialRecord(z.enum(DRAFT_FILES), z.string().max(MAX_EXISTING_FILE_CHARS))
    .refine((files) => files['yare.yaml'] !== undefined, { message: 'existing needs yare.yaml' })
    .optional(),
  /** Save the result into this draft of the caller's (its files are replaced by the generated ones). */
  draftId: id.optional(),
  /** The name of the new draft the result is saved as (when no `draftId`); the cartridge's bot_name by default. */
  draftName: name.optional(),
});
type GenerateBody = z.infer<typeof generateBody>;

/** A draft's name from generated rules: their bot_name when it is a plain short line. */
function botNameOf(yare: string | undefined): string | undefined {
  const line = yare?.split('\n').find((l) => l.startsWith('bot_name:'));
  const value = line
    ?.slice('bot_name:'.length)
    .trim()
    .replace(/^["']|["']$/g, '');
  return value && value.length <= 100 && /^[\p{L}\p{N} .,'!?&-]+$/u.test(value) ? value : undefined;
}

function finding(d: Diagnostic): GeneratorFinding {
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    where: formatPlace(d.place),
    ...(d.place ? { file: d.place.file, line: d.place.line, col: d.place.col } : {}),
  };
}

/** A generator event as the stream sends it. */
function progressEvent(event: GenerateEvent): GenerateStreamEvent {
  switch (event.type) {
    case 'asking':
      return { event: 'round', data: { round: event.round, kind: event.kind, errors: event.errors } };
    case 'answered':
      return { event: 'answered', data: { round: event.round, chars: event.chars, files: event.files } };
    case 'checked':
      return {
        event: 'checked',
        data: { round: event.round, errors: event.errors.map(finding), warnings: event.warnings.length },
      };
    default: {
      const never: never = event;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

/** What ended a generation early, as the stream's `error` event says it. */
function errorData(error: unknown): { code: string; message: string } {
  if (isModelError(error)) return { code: 'model', message: `the model failed: ${error.message}` };
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  if (error instanceof CartridgeCheckError)
    return { code: 'cartridge_check_failed', message: `the draft could not be checked: ${error.message}` };
  return { code: 'internal', message: 'the generator failed' };
}

interface Generation {
  readonly deps: AppDeps;
  readonly principal: Principal;
  readonly body: GenerateBody;
  readonly models: ModelSet;
  readonly target: Draft | undefined;
}

/** The result lands as a draft (never lost on reload) with the transcript; then `saved` and `done`. */
async function finish(
  g: Generation,
  result: GenerateResult,
  send: (event: GenerateStreamEvent) => void,
): Promise<void> {
  const transcript = transcriptMarkdown(result.transcript);
  const draft =
    g.target === undefined
      ? await createDraftFor(g.deps, g.principal, {
          name: g.body.draftName ?? botNameOf(result.files['yare.yaml']) ?? 'Generated cartridge',
          files: result.files,
          transcript,
        })
      : await g.deps.store.updateDraft(g.target.id, g.principal.id, {
          files: { ...draftFilesOf(g.target.files), ...result.files },
          transcript,
        });
  const rounds = result.transcript.rounds.length;
  // Its own small event first: a client that cannot read a large `done` still finds the draft.
  send({ event: 'saved', data: { draftId: draft?.id ?? null, ok: result.ok, rounds } });
  send({
    event: 'done',
    data: {
      ok: result.ok,
      files: result.files,
      errors: result.errors.map(finding),
      warnings: result.warnings.map(finding),
      rounds,
      transcript,
      draftId: draft?.id ?? null,
    },
  });
}

/** Runs one admitted generation into the stream; gives its place back when it ends, however it ends. */
async function stream(
  g: Generation,
  send: (event: GenerateStreamEvent) => void,
  signal: AbortSignal,
  release: Release,
) {
  const run = generateCartridge({
    model: g.models.director,
    requirements: g.body.requirements,
    signal,
    // Reading and checking each answer (up to MAX_ANSWER_CHARS) happens in the checker's worker.
    judge: (input) => g.deps.checker.judge(input, g.principal.id),
    ...(g.body.rounds === undefined ? {} : { repairRounds: g.body.rounds }),
    ...(g.body.existing ? { existing: g.body.existing as DraftFiles } : {}),
  });
  try {
    for (;;) {
      const next = await run.next();
      if (next.done) return await finish(g, next.value, send);
      send(progressEvent(next.value));
    }
  } catch (error) {
    send({ event: 'error', data: errorData(error) });
  } finally {
    release();
  }
}

export function registerBuilderGenerateRoute(api: RouteRegistry, deps: AppDeps): void {
  api.add(
    {
      method: 'post',
      path: '/v1/builder/generate',
      tag: 'builder',
      summary:
        'Draft a cartridge from plain English (or change `existing`) with the caller’s models; the checker’s file:line:col findings go back to the model for repair. Streams round, answered, checked, then saved (the draft the result was saved as, `draftId`) and done, or error.',
      body: generateBody,
      responses: {
        200: { description: 'Event stream', contentType: 'text/event-stream' },
        404: { description: '`draftId` is not one of the caller’s drafts', schema: errorSchema },
        409: { description: 'No model is configured for the caller', schema: errorSchema },
        429: {
          description:
            'This key already runs MAX_RUNNING_GENERATES_PER_KEY generations with MAX_WAITING_GENERATES_PER_KEY waiting (Retry-After)',
          schema: errorSchema,
        },
        503: {
          description: 'The server already has MAX_WAITING_GENERATES generations waiting (Retry-After)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, body }) => {
      const principal = c.get('principal');
      const target =
        body.draftId === undefined ? undefined : await deps.store.getDraft(body.draftId, principal.id);
      if (body.draftId !== undefined && target === undefined)
        throw new ApiError(404, 'not_found', `no draft '${body.draftId}' of yours`);
      const models = await guarded(() => deps.models.modelsFor(principal.id));
      if (models === null)
        throw new ApiError(
          409,
          'no_model',
          'no model is configured, and generating a cartridge needs one: choose one in Settings → Model (PUT /v1/settings for an API client) or start the server with a model (docs/models.md)',
        );
      // Admitted like a turn (generate-admission.ts): a place for this key, or 429/503 past the queue.
      let release: Release;
      try {
        release = await generateAdmissionOf(deps).admit(principal.id, c.req.raw.signal);
      } catch (error) {
        // The client went away while it waited: nobody reads an answer (499, as proxies log it).
        if (c.req.raw.signal.aborted && !(error instanceof ApiError))
          return new Response(null, { status: 499 });
        throw error;
      }
      const generation: Generation = { deps, principal, body, models, target };
      return sseResponse<GenerateStreamEvent>((send, signal) => stream(generation, send, signal, release), {
        requestSignal: c.req.raw.signal,
        maxUnreadBytes: MAX_UNREAD_GENERATE_BYTES,
      });
    },
  );
}
