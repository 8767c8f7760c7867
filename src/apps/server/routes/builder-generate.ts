// `POST /v1/builder/generate`: the AI generator (src/tools/authoring/builder/generate.ts) over Server-Sent
// Events, with the caller's models, bounded like a turn (docs/studio.md): admitted per key
// (generate-admission.ts; 429/503 past the queue), run whole in the generator's worker (generate/runner.ts:
// the model call and its streamed answer, the answer's reading and checking, bounded in time and memory),
// the model stopped once its answer passes MAX_ANSWER_CHARS, and a stream whose client leaves more than
// MAX_UNREAD_GENERATE_BYTES unread dropped with its generation. Events: `round` (the model is asked: draft
// or repair), `answered`, `checked` (the checker's findings as file:line:col), then `saved` (the draft the
// result was saved as) and a small `done` (the findings; the files and transcript are the draft's), or
// `error` (the model failed, a bound was reached, or the client went away).

import { z } from 'zod';
import { type Draft, JsonText, type Principal } from '../../../adapters/store/index.ts';
import type { PortableModels } from '../../../engine/session/index.ts';
import {
  DRAFT_FILES,
  type DraftFiles,
  draftFilesOf,
  MAX_REPAIR_ROUNDS,
  MAX_REQUIREMENTS_CHARS,
} from '../../../tools/authoring/builder/index.ts';
import type { GenerateStreamEvent } from '../../contract/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { GenerateAdmission, type Release } from '../generate-admission.ts';
import type { GenerationJob, GenerationResult } from '../generate/protocol.ts';
import { GenerationFailed } from '../generate/runner.ts';
import type { RouteRegistry } from '../openapi.ts';
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

/** What ended a generation early, as the stream's `error` event says it. */
function errorData(error: unknown): { code: string; message: string } {
  if (error instanceof GenerationFailed) return error.failure;
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  return { code: 'internal', message: 'the generator failed' };
}

interface Generation {
  readonly deps: AppDeps;
  readonly principal: Principal;
  readonly body: GenerateBody;
  readonly models: PortableModels;
  readonly target: Draft | undefined;
}

/** The result saved: into the draft named (unless it was deleted meanwhile), else as a new draft. */
async function save(g: Generation, result: GenerationResult): Promise<Draft> {
  // The worker serialised the files the draft keeps (the target's with the generated ones over them): the
  // store writes that text as it is and answers with these files, parsing nothing.
  const base = g.target === undefined ? {} : draftFilesOf(g.target.files);
  const files = new JsonText(result.draftFilesJson, { ...base, ...result.files });
  const updated =
    g.target === undefined
      ? undefined
      : await g.deps.store.updateDraft(g.target.id, g.principal.id, { files, transcript: result.transcript });
  if (updated !== undefined) return updated;
  // The target was deleted meanwhile: a new draft, with only the generated files.
  return createDraftFor(g.deps, g.principal, {
    name: g.body.draftName ?? g.target?.name ?? result.botName ?? 'Generated cartridge',
    files: g.target === undefined ? files : new JsonText(JSON.stringify(result.files), result.files),
    transcript: result.transcript,
  });
}

/** The result lands as a draft (never lost on reload); `saved` and a small `done` say which. */
async function finish(
  g: Generation,
  result: GenerationResult,
  send: (event: GenerateStreamEvent) => void,
): Promise<void> {
  const draft = await save(g, result);
  send({ event: 'saved', data: { draftId: draft.id, ok: result.ok, rounds: result.rounds } });
  // The files and the transcript are the draft's (GET /v1/builder/drafts/{id}): `done` stays small.
  send({
    event: 'done',
    data: {
      ok: result.ok,
      errors: result.errors,
      errorCount: result.errorCount,
      warnings: result.warnings,
      warningCount: result.warningCount,
      rounds: result.rounds,
      draftId: draft.id,
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
  try {
    const job: GenerationJob = {
      requirements: g.body.requirements,
      ...(g.body.rounds === undefined ? {} : { rounds: g.body.rounds }),
      ...(g.body.existing ? { existing: g.body.existing as DraftFiles } : {}),
      ...(g.target === undefined ? {} : { base: draftFilesOf(g.target.files) }),
    };
    const result = await g.deps.generator.run(job, g.models, signal, send);
    await finish(g, result, send);
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
      const models = await guarded(() => deps.models.portableModelsFor(principal.id));
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
