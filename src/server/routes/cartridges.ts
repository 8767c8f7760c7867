// Cartridges: list, upload a folder as a .zip or .tar.gz (validated; errors come back as file:line:col),
// a cartridge's versions, and one version with its files. Versions are content-addressed and immutable.

import { z } from 'zod';
import type { Diagnostic } from '../../diagnostics.ts';
import type { CartridgeVersionSummary } from '../../store/repository.ts';
import { ArchiveError, readArchive } from '../archive/index.ts';
import { readBodyBytes } from '../body.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { anyObject, errorSchema, id, name, uploadQuery } from '../schemas.ts';

export const ARCHIVE_CONTENT_TYPES: readonly string[] = [
  'application/zip',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/octet-stream',
];

function versionView(v: CartridgeVersionSummary) {
  return { id: v.id, name: v.name, contentHash: v.contentHash, createdAt: v.createdAt };
}

export function diagnosticView(d: Diagnostic) {
  return {
    file: d.place?.file ?? null,
    line: d.place?.line ?? null,
    col: d.place?.col ?? null,
    code: d.code,
    message: d.message,
    severity: d.severity,
    where: d.place ? `${d.place.file}:${d.place.line}:${d.place.col}` : null,
  };
}

function archiveStatus(error: ArchiveError): 413 | 422 {
  return error.code === 'archive_too_large' ? 413 : 422;
}

export function registerCartridgeRoutes(api: RouteRegistry, deps: AppDeps): void {
  const { store, library } = deps;

  api.add(
    {
      method: 'get',
      path: '/v1/cartridges',
      tag: 'cartridges',
      summary: 'Every cartridge with its newest version.',
      responses: { 200: { description: 'Cartridges', schema: anyObject } },
    },
    async ({ c }) => {
      const list = await store.listCartridges();
      return c.json({
        cartridges: list.map((s) => ({
          name: s.name,
          versionCount: s.versionCount,
          latest: versionView(s.latest),
        })),
      });
    },
  );

  api.add(
    {
      method: 'post',
      path: '/v1/cartridges',
      tag: 'cartridges',
      summary:
        'Upload a cartridge folder as a .zip or .tar.gz archive (one top-level folder is stripped). Invalid cartridges are refused with every error as file:line:col.',
      query: uploadQuery,
      rawBody: { contentTypes: ARCHIVE_CONTENT_TYPES, description: 'The archive bytes' },
      responses: {
        200: { description: 'The same files were already stored: that version', schema: anyObject },
        201: { description: 'The new version, with warnings', schema: anyObject },
        413: {
          description: 'The archive, a file or the total is too large (or inflates too far)',
          schema: errorSchema,
        },
        415: { description: 'Not an archive content type', schema: errorSchema },
        422: {
          description: 'A bad archive (paths, links, format) or an invalid cartridge (`errors`)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, query }) => {
      const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!ARCHIVE_CONTENT_TYPES.includes(type)) {
        throw new ApiError(
          415,
          'unsupported_media_type',
          `send the archive as one of ${ARCHIVE_CONTENT_TYPES.join(', ')}`,
        );
      }
      const bytes = await readBodyBytes(c.req.raw, deps.limits.maxUploadBytes);
      let files: Map<string, Uint8Array>;
      try {
        files = readArchive(bytes);
      } catch (error) {
        if (!(error instanceof ArchiveError)) throw error;
        throw new ApiError(
          archiveStatus(error),
          error.code,
          error.message,
          error.entry === undefined ? {} : { entry: error.entry },
        );
      }
      const result = await library.register(files, query.name ?? 'cartridge');
      if (!result.ok) {
        throw new ApiError(422, 'cartridge_invalid', `the cartridge has ${result.errors.length} error(s)`, {
          errors: result.errors.map(diagnosticView),
          warnings: result.warnings.map(diagnosticView),
        });
      }
      return c.json(
        {
          version: versionView(result.version),
          created: result.created,
          warnings: result.warnings.map(diagnosticView),
        },
        result.created ? 201 : 200,
      );
    },
  );

  api.add(
    {
      method: 'get',
      path: '/v1/cartridges/:name/versions',
      tag: 'cartridges',
      summary: 'A cartridge’s versions, newest first.',
      params: z.object({ name }),
      responses: {
        200: { description: 'Versions', schema: anyObject },
        404: { description: 'No such cartridge', schema: errorSchema },
      },
    },
    async ({ c, params }) => {
      const versions = await store.listCartridgeVersions(params.name);
      if (versions.length === 0) throw new ApiError(404, 'not_found', `no cartridge '${params.name}'`);
      return c.json({ name: params.name, versions: versions.map(versionView) });
    },
  );

  api.add(
    {
      method: 'get',
      path: '/v1/cartridge-versions/:id',
      tag: 'cartridges',
      summary: 'One cartridge version (by id or content hash) with its files.',
      params: z.object({ id }),
      responses: {
        200: { description: 'The version', schema: anyObject },
        404: { description: 'No such version', schema: errorSchema },
      },
    },
    async ({ c, params }) => {
      const version = await store.getCartridgeVersion(params.id);
      if (version === undefined) throw new ApiError(404, 'not_found', `no cartridge version '${params.id}'`);
      return c.json({ version: { ...versionView(version), files: version.files } });
    },
  );
}
