// `POST /v1/cartridges/import`: a SillyTavern character card (PNG/APNG, CHARX, V1/V2/V3 JSON) or World Info
// file becomes a cartridge in the caller's library, as `mnesos import` would make it, with the loss report in
// the answer. The cartridge is checked and stored like any upload (quota, reserved names).

import { z } from 'zod';
import { CARTRIDGE_FILES } from '../../../core/cartridge/index.ts';
import { ImportError, importSillyTavern, MAX_IMPORT_FILE_BYTES } from '../../../tools/interop/index.ts';
import { readBodyBytes } from '../body.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { importResponse } from '../../contract/index.ts';
import { errorSchema } from '../schemas.ts';
import { diagnosticView, requireContentType, storeUpload, versionView } from './cartridges.ts';

export const IMPORT_CONTENT_TYPES: readonly string[] = [
  'image/png',
  'image/apng',
  'application/json',
  'application/zip',
  'application/octet-stream',
];

const CARTRIDGE_FILE_NAMES = new Set(CARTRIDGE_FILES.map((f) => f.name));

const importQuery = z.object({
  greeting: z.coerce.number().int().min(0).max(1_000).optional(),
});

/** The uploaded file imported; its problem as 413 (too large) or 422, naming where. */
function importUpload(bytes: Uint8Array, greeting: number | undefined): ReturnType<typeof importSillyTavern> {
  try {
    return importSillyTavern(bytes, 'upload', greeting === undefined ? {} : { greeting });
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    throw new ApiError(
      error.code === 'IMPORT_TOO_LARGE' ? 413 : 422,
      error.code.toLowerCase(),
      error.message,
      {
        where: error.where,
      },
    );
  }
}

export function registerSillyTavernImportRoute(api: RouteRegistry, deps: AppDeps): void {
  api.add(
    {
      method: 'post',
      path: '/v1/cartridges/import',
      tag: 'cartridges',
      summary:
        'Import a SillyTavern character card (PNG, APNG, CHARX, V1/V2/V3 JSON) or World Info file as a cartridge; the answer lists what was not carried over.',
      query: importQuery,
      rawBody: { contentTypes: IMPORT_CONTENT_TYPES, description: 'The card or World Info file' },
      responses: {
        200: { description: 'The same cartridge was already stored', schema: importResponse },
        201: {
          description: 'The new cartridge version, its warnings and the loss report',
          schema: importResponse,
        },
        413: { description: 'The file is too large, or the quota would be passed', schema: errorSchema },
        415: { description: 'Not a supported content type', schema: errorSchema },
        422: { description: 'The file is malformed (`where` names the place)', schema: errorSchema },
      },
    },
    async ({ c, query }) => {
      requireContentType(c.req.header('content-type'), IMPORT_CONTENT_TYPES, 'the file');
      const bytes = await readBodyBytes(
        c.req.raw,
        Math.min(deps.limits.maxUploadBytes, MAX_IMPORT_FILE_BYTES),
      );
      const imported = importUpload(bytes, query.greeting);
      // Only the cartridge's own files are stored (the avatar and the card copy stay with `mnesos import`).
      const files = new Map([...imported.files].filter(([name]) => CARTRIDGE_FILE_NAMES.has(name)));
      const result = await storeUpload(deps, c.get('principal'), files, imported.name);
      return c.json(
        {
          version: versionView(result.version),
          created: result.created,
          kind: imported.kind,
          spec: imported.spec ?? null,
          loss: imported.loss,
          warnings: result.warnings.map(diagnosticView),
        },
        result.created ? 201 : 200,
      );
    },
  );
}
