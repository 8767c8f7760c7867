// The builder's working routes. `POST /v1/builder/check`: a draft's files through the checker of
// `mnesos validate` (off the request thread, as uploads are), findings at file:line:col. `POST
// /v1/builder/complete`: the language server's completion for one file. `POST /v1/builder/try`: one event
// on a chosen state with a seed, as `mnesos run-event`. `POST /v1/builder/explore`: the draft explored as
// `mnesos explore` does, in the checker's worker, within the builder's bounds. `POST /v1/builder/generate`
// (the AI generator) is builder-generate.ts; drafts themselves are builder-drafts.ts.

import type { z } from 'zod';
import type { ExploreDraftOutcome } from '../../../tools/authoring/builder/index.ts';
import type { TryOutcome } from '../cartridge-checker.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import {
  builderCheckResponse,
  completionResponse,
  exploreResponse,
  hoverResponse,
  tryResponse,
} from '../../contract/index.ts';
import { errorSchema } from '../schemas.ts';
import { checkDraftFiles, registerBuilderDraftRoutes } from './builder-drafts.ts';
import { registerBuilderGenerateRoute } from './builder-generate.ts';
import { checkBody, completeBody, exploreBody, hoverBody, tryBody } from './builder-schemas.ts';
import { checkedOffThread, diagnosticView } from './cartridges.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';

/**
 * The builder's completion and hover, loaded on the first request that needs them: they bring in
 * vscode-languageserver, a few hundred milliseconds of start-up that `serve` should not pay before it listens.
 */
const languageService = () => import('../../../tools/authoring/builder/completion.ts');

/** What completion and hover take, from their request body. */
function languageInput(body: z.infer<typeof completeBody>) {
  return {
    file: body.file,
    text: body.text,
    offset: body.offset,
    ...(body.rules === undefined ? {} : { rulesFiles: body.rules }),
  };
}

const checkFiles: RouteDefinition = (api, deps) => {
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
};

const completeAt: RouteDefinition = (api) => {
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
};

const hoverAt: RouteDefinition = (api) => {
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
};

/** The event run in the checker's worker (compiling the rules may run a yare.js/yare.ts module in the
 * sandbox); rules that do not compile, a refusal or a failed check are a 422 naming it. */
async function triedEvent(
  deps: AppDeps,
  body: z.infer<typeof tryBody>,
  principalId: string,
): Promise<Extract<TryOutcome, { kind: 'ran' }>['result']> {
  const outcome = await checkedOffThread(
    deps.checker.tryEvent(
      {
        files: body.files,
        event: body.event,
        ...(body.inputs === undefined ? {} : { inputs: body.inputs }),
        ...(body.state === undefined ? {} : { state: body.state }),
        ...(body.seed === undefined ? {} : { seed: body.seed }),
      },
      principalId,
    ),
    'the event could not be tried',
  );
  switch (outcome.kind) {
    case 'ran':
      return outcome.result;
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
}

/** The draft explored in the checker's worker; a draft that does not load, a refusal or a failed check are a
 * 422 naming it. */
async function exploredDraft(
  deps: AppDeps,
  body: z.infer<typeof exploreBody>,
  principalId: string,
): Promise<Extract<ExploreDraftOutcome, { kind: 'explored' }>['report']> {
  const outcome = await checkedOffThread(
    deps.checker.explore(
      {
        files: body.files,
        ...(body.runs === undefined ? {} : { runs: body.runs }),
        ...(body.depth === undefined ? {} : { depth: body.depth }),
        ...(body.seed === undefined ? {} : { seed: body.seed }),
        ...(body.state === undefined ? {} : { state: body.state }),
      },
      principalId,
    ),
    'the draft could not be explored',
  );
  switch (outcome.kind) {
    case 'explored':
      return outcome.report;
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
}

const tryEvent: RouteDefinition = (api, deps) => {
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
    async ({ c, body }) => c.json(await triedEvent(deps, body, c.get('principal').id)),
  );
};

const exploreDraft: RouteDefinition = (api, deps) => {
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
    async ({ c, body }) => c.json({ report: await exploredDraft(deps, body, c.get('principal').id) }),
  );
};

/** Every route of this file, in the order they are registered. */
export const BUILDER_ROUTES: readonly RouteDefinition[] = [
  checkFiles,
  completeAt,
  hoverAt,
  tryEvent,
  exploreDraft,
];

export function registerBuilderRoutes(api: RouteRegistry, deps: AppDeps): void {
  registerBuilderDraftRoutes(api, deps);
  registerAll(api, deps, BUILDER_ROUTES);
  registerBuilderGenerateRoute(api, deps);
}
