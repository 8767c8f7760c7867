// How the API shows library cartridges and versions, and the request schemas of their metadata. The
// viewer is the caller's library owner ('' for the operator, whose library the local user owns).

import { z } from 'zod';
import {
  type LibraryCartridge,
  type LibraryVersion,
  MAX_DESCRIPTION_CHARS,
  MAX_GENRE_CHARS,
  MAX_LISTED_DESCRIPTION_CHARS,
  MAX_TAG_CHARS,
  MAX_TAGS,
  MAX_TITLE_CHARS,
  MAX_VERSION_NOTES_CHARS,
  MAX_VERSION_TAG_CHARS,
  VISIBILITIES,
} from '../../adapters/store/index.ts';
import type { LibraryCartridgeView, LibraryVersionView } from '../contract/index.ts';
import { nameProblem, storableTextProblem } from '../../core/text-policy.ts';

/** A line of text (no control characters) of at most `max` characters. */
const line = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      const problem = nameProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    });

/** Text that may span lines, of at most `max` characters. */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      const problem = storableTextProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    });

export const cartridgePatchBody = z
  .strictObject({
    title: line(MAX_TITLE_CHARS).trim().min(1).optional(),
    description: text(MAX_DESCRIPTION_CHARS).optional(),
    genre: line(MAX_GENRE_CHARS).trim().optional(),
    tags: z.array(line(MAX_TAG_CHARS).trim().min(1)).max(MAX_TAGS).optional(),
    visibility: z.enum(VISIBILITIES).optional(),
    archived: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' });

export const versionTag = line(MAX_VERSION_TAG_CHARS).trim().min(1);
export const versionNotes = text(MAX_VERSION_NOTES_CHARS);

export const versionPatchBody = z
  .strictObject({
    tag: versionTag.nullable().optional(),
    notes: versionNotes.nullable().optional(),
    archived: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' });

/** Whose a cartridge is, as the viewer sees it. */
export function ownerLabel(ownerId: string, viewer: string): 'self' | 'operator' | 'other' {
  if (ownerId === viewer) return 'self';
  return ownerId === '' ? 'operator' : 'other';
}

export function libraryVersionView(v: LibraryVersion): LibraryVersionView {
  return {
    id: v.id,
    name: v.name,
    contentHash: v.contentHash,
    createdAt: v.createdAt,
    addedAt: v.addedAt,
    tag: v.tag,
    notes: v.notes,
    archived: v.archivedAt !== null,
    archivedAt: v.archivedAt,
  };
}

/**
 * A cartridge as the viewer sees it. In a listing (`listed`) the description is cut to
 * MAX_LISTED_DESCRIPTION_CHARS characters (`descriptionCut` says so), so a listing of many cartridges stays
 * small; the cartridge's own answer has all of it.
 */
export function libraryCartridgeView(
  c: LibraryCartridge,
  viewer: string,
  listed = false,
): LibraryCartridgeView {
  const owner = ownerLabel(c.ownerId, viewer);
  const chars =
    listed && c.description.length > MAX_LISTED_DESCRIPTION_CHARS ? [...c.description] : undefined;
  const cut = chars !== undefined && chars.length > MAX_LISTED_DESCRIPTION_CHARS;
  return {
    id: c.id,
    name: c.name,
    owner,
    canEdit: owner === 'self',
    title: c.title,
    description: cut ? chars.slice(0, MAX_LISTED_DESCRIPTION_CHARS).join('') : c.description,
    descriptionCut: cut,
    genre: c.genre,
    tags: c.tags,
    visibility: c.visibility,
    archived: c.archivedAt !== null,
    cover:
      c.cover === null
        ? null
        : {
            mediaType: c.cover.mediaType,
            bytes: c.cover.bytes,
            url: `/v1/cartridges/${encodeURIComponent(c.id)}/cover`,
            updatedAt: c.cover.updatedAt,
          },
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

export type { LibraryCartridgeView, LibraryVersionView };
