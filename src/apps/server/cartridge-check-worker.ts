// The worker side of CartridgeChecker: loads (parses, compiles, checks) an uploaded cartridge off the
// request thread and answers with what the server stores: its name, content hash and diagnostics. A
// `try` request compiles a builder draft's rules (kept in the studio's cache, here in the worker) and
// runs one event on them; an `explore` request explores a draft (the builder's Explore pane).

import { parentPort } from 'node:worker_threads';
import { loadCartridgeFromFiles } from '../../adapters/files/index.ts';
import {
  compileDraftRules,
  exploreDraft,
  TryInputError,
  tryEvent,
} from '../../tools/authoring/builder/index.ts';
import type { CheckReply, TryOutcome, TryRequest, WorkerRequest } from './cartridge-checker.ts';

function runTry(request: TryRequest): TryOutcome {
  const compiled = compileDraftRules(request.files);
  if (!compiled.ok) return { kind: 'rules-invalid', errors: [...compiled.errors] };
  try {
    return {
      kind: 'ran',
      result: tryEvent(compiled.rules, {
        event: request.event,
        ...(request.inputs === undefined ? {} : { inputs: request.inputs }),
        ...(request.state === undefined ? {} : { state: request.state }),
        ...(request.seed === undefined ? {} : { seed: request.seed }),
      }),
    };
  } catch (error) {
    if (error instanceof TryInputError) return { kind: 'refused', message: error.message };
    throw error;
  }
}

parentPort?.on('message', async (request: WorkerRequest) => {
  let reply: CheckReply;
  try {
    if (request.kind === 'explore') {
      const { id: _id, kind: _kind, ...input } = request;
      reply = { id: request.id, result: await exploreDraft(input) };
    } else if (request.kind === 'try') {
      reply = { id: request.id, result: runTry(request) };
    } else {
      const result = loadCartridgeFromFiles(new Map(request.files), request.name);
      reply = result.ok
        ? {
            id: request.id,
            result: {
              ok: true,
              name: result.cartridge.name,
              contentHash: result.cartridge.contentHash,
              warnings: result.warnings,
            },
          }
        : { id: request.id, result: { ok: false, errors: result.errors, warnings: result.warnings } };
    }
  } catch (error) {
    reply = { id: request.id, failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});

parentPort?.postMessage({ ready: true } satisfies CheckReply);
