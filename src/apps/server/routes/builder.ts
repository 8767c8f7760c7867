// The builder's working routes. `POST /v1/builder/check`: a draft's files through the checker of
// `mnesos validate` (off the request thread, as uploads are), findings at file:line:col. `POST
// /v1/builder/complete`: the language server's completion for one file. `POST /v1/builder/try`: one event
// on a chosen state with a seed, as `mnesos run-event`. `POST /v1/builder/explore`: the draft explored as
// `mnesos explore` does, in the checker's worker, within the builder's bounds. `POST /v1/builder/generate`: the AI generator
// (src/tools/authoring/builder/generate.ts) over Server-Sent Events, with the caller's models. Events: `round` (the model
// is asked: draft or repair), `answered`, `checked` (the checker's findings as file:line:col), then
// `saved` (the draft the result was saved as) and `done` with the files, the findings and the transcript,
// or `error` (the model failed, or the client went away). Drafts themselves are in builder-drafts.ts.

import { z } from 'zod';
import { formatPlace } from '../../../core/diagnostics.ts';
import type { Diagnostic } from '../../../core/diagnostics.ts';
import { isModelError } from '../../../adapters/llm/index.ts';
import {
  DRAFT_FILES,
  type DraftFiles,
  type ExploreDraftOutcome,
  draftFilesOf,
  generateCartridge,
  MAX_REPAIR_ROUNDS,
  MAX_REQUIREMENTS_CHARS,
  transcriptMarkdown,
} from '../../../tools/authoring/builder/index.ts';
import { CartridgeCheckError, type TryOutcome } from '../cartridge-checker.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import {
  builderCheckResponse,
  completionResponse,
  exploreResponse,
  hoverResponse,
  tryResponse,
} from '../responses.ts';
import { errorSchema, id, name } from '../schemas.ts';
import { sseResponse } from '../sse.ts';
import { checkDraftFiles, createDraftFor, registerBuilderDraftRoutes } from './builder-drafts.ts';
import { checkBody, completeBody, exploreBody, hoverBody, tryBody } from './builder-schemas.ts';
import { diagnosticView } from './cartridges.ts';
import { guarded } from './guard.ts';

const MAX_EXISTING_FILE_CHARS = 2 * 1024 * 1024;

/**
 * The builder's completion and hover, loaded on the first request that needs them: they bring in
 * vscode-languageserver, a few hundred milliseconds of start-up that `serve` should not pay before it listens.
 */
const languageService = () => import('../../../tools/authoring/builder/completion.ts');

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

/** What completion and hover take, from their request body. */
function languageInput(body: z.infer<typeof completeBody>) {
  return {
    file: body.file,
    text: body.text,
    offset: body.offset,
    ...(body.rules === undefined ? {} : { rulesFiles: body.rules }),
  };
}

/** A draft's name from generated rules: their bot_name when it is a plain short line. */
function botNameOf(yare: string | undefined): string | undefined {
  const line = yare?.split('\n').find((l) => l.startsWith('bot_name:'));
  const value = line
    ?.slice('bot_name:'.length)
    .trim()
    .replace(/^["']|["']$/g, '');
  return value && value.length <= 100 && /^[\p{L}\p{N} .,'!?&-]+$/u.test(value) ? value : undefined;
}

function finding(d: Diagnostic): Record<string, unknown> {
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    where: formatPlace(d.place),
    ...(d.place ? { file: d.place.file, line: d.place.line, col: d.place.col } : {}),
  };
}

export function registerBuilderRoutes(api: RouteRegistry, deps: AppDeps): void {
  registerBuilderDraftRoutes(api, deps);
  api.add(
    {
      method: 'post',
      path: '/v1/builder/check',
      tag: 'builder',
      summary:
        'Checks a draft’s files with the checker of `mnesos validate` (off the request thread): every error and warning at file:line:col. Nothing is stored.',
      body: checkBody,
      responses: {
        200: { description: '`ok`, `errors` and `warnings`', schema: builderCheckResponse },
        400: { description: 'A bad body (an unknown file name, a file over its limit)', schema: errorSchema },
        422: { description: 'The check itself failed (took too long)', schema: errorSchema },
      },
    },
    async ({ c, body }) => c.json(await checkDraftFiles(deps, body.files, c.get('principal').id)),
  );

  api.add(
    {
      method: 'post',
      path: '/v1/builder/complete',
      tag: 'builder',
      summary:
        'Completion at `offset` of one file (the language server’s): keys and values, and with `rules` (the rules file that last compiled) state paths, inputs, macros, functions and event names.',
      body: completeBody,
      responses: {
        200: { description: '`from` (where the word starts) and `items`', schema: completionResponse },
        400: { description: 'A bad body', schema: errorSchema },
      },
    },
    async ({ c, body }) => c.json((await languageService()).builderCompletions(languageInput(body))),
  );

  api.add(
    {
      method: 'post',
      path: '/v1/builder/hover',
      tag: 'builder',
      summary:
        'What the language server shows on hover at `offset` of one file, as Markdown (`{markdown}`, or null): with `rules`, a state path’s type, range and visibility, a macro, an input, an event; a function’s usage; a key’s documentation.',
      body: hoverBody,
      responses: {
        200: { description: '`{markdown}` or null', schema: hoverResponse },
        400: { description: 'A bad body', schema: errorSchema },
      },
    },
    async ({ c, body }) => c.json({ hover: (await languageService()).builderHover(languageInput(body)) }),
  );

  api.add(
    {
      method: 'post',
      path: '/v1/builder/try',
      tag: 'builder',
      summary:
        'Runs one event of a draft’s rules on a state (the initial one, or `state` laid over it) with a seed, as `mnesos run-event`: notes, dice rolls and the state diff. Nothing is stored.',
      body: tryBody,
      responses: {
        200: { description: 'The run: `ok`, `notes`, `rolls`, `changes` (or `error`)', schema: tryResponse },
        400: { description: 'A bad body', schema: errorSchema },
        422: {
          description: 'The rules do not compile (`rules_invalid`, with `errors`), or no such event',
          schema: errorSchema,
        },
      },
    },
    async ({ c, body }) => {
      let outcome: TryOutcome;
      try {
        // In the checker's worker: compiling the rules may run a yare.js/yare.ts module in the sandbox.
        outcome = await deps.checker.tryEvent(
          {
            files: body.files,
            event: body.event,
            ...(body.inputs === undefined ? {} : { inputs: body.inputs }),
            ...(body.state === undefined ? {} : { state: body.state }),
            ...(body.seed === undefined ? {} : { seed: body.seed }),
          },
          c.get('principal').id,
        );
      } catch (error) {
        if (!(error instanceof CartridgeCheckError)) throw error;
        throw new ApiError(422, 'cartridge_check_failed', `the event could not be tried: ${error.message}`);
      }
      switch (outcome.kind) {
        case 'ran':
          return c.json(outcome.result);
        case 'rules-invalid':
          throw new ApiError(
            422,
            'rules_invalid',
            `the rules do not compile (${outcome.errors.length} error(s)); fix them to try an event`,
            { errors: outcome.errors.map(diagnosticView) },
          );
        case 'refused':
          throw new ApiError(422, 'try_refused', outcome.message);
        default: {
          const never: never = outcome;
          throw new Error(`unknown outcome ${JSON.stringify(never)}`);
        }
      }
    },
  );

  api.add(
    {
      method: 'post',
      path: '/v1/builder/explore',
      tag: 'builder',
      summary:
        'Explores a draft as `mnesos explore` does (seeded random playthroughs, in the checker’s worker): violations shrunk to their shortest sequences, and what was never reached, at file:line:col. At most MAX_BUILDER_EXPLORE_RUNS runs of MAX_BUILDER_EXPLORE_DEPTH steps, and BUILDER_EXPLORE_MS of play (then `stoppedEarly`). Nothing is stored.',
      body: exploreBody,
      responses: {
        200: { description: '`report`: violations and coverage', schema: exploreResponse },
        400: { description: 'A bad body (runs or depth past the builder’s limit)', schema: errorSchema },
        422: {
          description: 'The draft does not load (`cartridge_invalid`, with `errors`)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, body }) => {
      let outcome: ExploreDraftOutcome;
      try {
        outcome = await deps.checker.explore(
          {
            files: body.files,
            ...(body.runs === undefined ? {} : { runs: body.runs }),
            ...(body.depth === undefined ? {} : { depth: body.depth }),
            ...(body.seed === undefined ? {} : { seed: body.seed }),
            ...(body.state === undefined ? {} : { state: body.state }),
          },
          c.get('principal').id,
        );
      } catch (error) {
        if (!(error instanceof CartridgeCheckError)) throw error;
        throw new ApiError(
          422,
          'cartridge_check_failed',
          `the draft could not be explored: ${error.message}`,
        );
      }
      switch (outcome.kind) {
        case 'explored':
          return c.json({ report: outcome.report });
        case 'invalid':
          throw new ApiError(
            422,
            'cartridge_invalid',
            `the draft does not load (${outcome.errors.length} error(s)); fix them to explore it`,
            { errors: outcome.errors.map(diagnosticView) },
          );
        case 'refused':
          throw new ApiError(422, 'explore_refused', outcome.message);
        default: {
          const never: never = outcome;
          throw new Error(`unknown outcome ${JSON.stringify(never)}`);
        }
      }
    },
  );

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
      return sseResponse(
        async (send, signal) => {
          const run = generateCartridge({
            model: models.director,
            requirements: body.requirements,
            signal,
            ...(body.rounds === undefined ? {} : { repairRounds: body.rounds }),
            ...(body.existing ? { existing: body.existing as DraftFiles } : {}),
          });
          try {
            for (;;) {
              const next = await run.next();
              if (next.done) {
                const result = next.value;
                const transcript = transcriptMarkdown(result.transcript);
                // The result lands as a draft (never lost on reload), with the transcript of what was tried.
                const draft =
                  target === undefined
                    ? await createDraftFor(deps, principal, {
                        name: body.draftName ?? botNameOf(result.files['yare.yaml']) ?? 'Generated cartridge',
                        files: result.files,
                        transcript,
                      })
                    : await deps.store.updateDraft(target.id, principal.id, {
                        files: { ...draftFilesOf(target.files), ...result.files },
                        transcript,
                      });
                // Its own small event first: a client that cannot read a large `done` still finds the draft.
                send({
                  event: 'saved',
                  data: {
                    draftId: draft?.id ?? null,
                    ok: result.ok,
                    rounds: result.transcript.rounds.length,
                  },
                });
                send({
                  event: 'done',
                  data: {
                    ok: result.ok,
                    files: result.files,
                    errors: result.errors.map(finding),
                    warnings: result.warnings.map(finding),
                    rounds: result.transcript.rounds.length,
                    transcript,
                    draftId: draft?.id ?? null,
                  },
                });
                return;
              }
              const event = next.value;
              switch (event.type) {
                case 'asking':
                  send({
                    event: 'round',
                    data: { round: event.round, kind: event.kind, errors: event.errors },
                  });
                  break;
                case 'answered':
                  send({
                    event: 'answered',
                    data: { round: event.round, chars: event.chars, files: event.files },
                  });
                  break;
                case 'checked':
                  send({
                    event: 'checked',
                    data: {
                      round: event.round,
                      errors: event.errors.map(finding),
                      warnings: event.warnings.length,
                    },
                  });
                  break;
                default: {
                  const never: never = event;
                  throw new Error(`unknown event ${JSON.stringify(never)}`);
                }
              }
            }
          } catch (error) {
            send({
              event: 'error',
              data: isModelError(error)
                ? { code: 'model', message: `the model failed: ${error.message}` }
                : error instanceof ApiError
                  ? { code: error.code, message: error.message }
                  : { code: 'internal', message: 'the generator failed' },
            });
          }
        },
        { requestSignal: c.req.raw.signal },
      );
    },
  );
}
