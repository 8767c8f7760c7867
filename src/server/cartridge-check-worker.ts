// The worker side of CartridgeChecker: loads (parses, compiles, checks) an uploaded cartridge off the
// request thread and answers with what the server stores: its name, content hash and diagnostics.

import { parentPort } from 'node:worker_threads';
import { loadCartridgeFromFiles } from '../cartridge/index.ts';
import type { CheckReply, CheckRequest } from './cartridge-checker.ts';

parentPort?.on('message', (request: CheckRequest) => {
  let reply: CheckReply;
  try {
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
  } catch (error) {
    reply = { id: request.id, failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
