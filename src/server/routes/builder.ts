// `POST /v1/builder/generate`: the AI generator (src/studio/generate.ts) over Server-Sent Events, with the
// caller's models. Events: `round` (the model is asked: draft or repair), `answered`, `checked` (the
// checker's findings as file:line:col), then `done` with the files, the findings and the transcript, or
// `error` (the model failed, or the client went away). Nothing is stored: the caller keeps the draft.

import { z } from 'zod';
import { formatPlace } from '../../diagnostics.ts';
import type { Diagnostic } from '../../diagnostics.ts';
import { isModelError } from '../../llm/errors.ts';
import { DRAFT_FILES, type DraftFiles } from '../../studio/draft.ts';
import { generateCartridge, transcriptMarkdown } from '../../studio/generate.ts';
import { MAX_REPAIR_ROUNDS, MAX_REQUIREMENTS_CHARS } from '../../studio/limits.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { errorSchema } from '../schemas.ts';
import { sseResponse } from '../sse.ts';
import { guarded } from './guard.ts';

const MAX_EXISTING_FILE_CHARS = 2 * 1024 * 1024;

const generateBody = z.strictObject({
  requirements: z.string().min(1).max(MAX_REQUIREMENTS_CHARS),
  rounds: z.number().int().min(0).max(MAX_REPAIR_ROUNDS).optional(),
  /** A draft to change: the four files by name (yare.yaml required). */
  existing: z
    .partialRecord(z.enum(DRAFT_FILES), z.string().max(MAX_EXISTING_FILE_CHARS))
    .refine((files) => files['yare.yaml'] !== undefined, { message: 'existing needs yare.yaml' })
    .optional(),
});

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
  api.add(
    {
      method: 'post',
      path: '/v1/builder/generate',
      tag: 'system',
      summary:
        'Draft a cartridge from plain English (or change `existing`) with the caller’s models; the checker’s file:line:col findings go back to the model for repair. Streams round, answered, checked, then done or error.',
      body: generateBody,
      responses: {
        200: { description: 'Event stream', contentType: 'text/event-stream' },
        409: { description: 'No model is configured for the caller', schema: errorSchema },
      },
    },
    async ({ c, body }) => {
      const models = await guarded(() => deps.models.modelsFor(c.get('principal').id));
      if (models === null)
        throw new ApiError(
          409,
          'no_model',
          'no model is configured, and generating a cartridge needs one: set one in the model settings (PUT /v1/settings/models) or start the server with a model (docs/models.md)',
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
                send({
                  event: 'done',
                  data: {
                    ok: result.ok,
                    files: result.files,
                    errors: result.errors.map(finding),
                    warnings: result.warnings.map(finding),
                    rounds: result.transcript.rounds.length,
                    transcript: transcriptMarkdown(result.transcript),
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
                : { code: 'internal', message: 'the generator failed' },
            });
          }
        },
        { requestSignal: c.req.raw.signal },
      );
    },
  );
}
