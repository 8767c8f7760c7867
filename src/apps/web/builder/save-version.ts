// Save as version: the draft's files become a version in the caller's library. A draft whose bot_name is
// one of the caller's cartridges never joins it unasked: the author chooses (OK: add it as that
// cartridge's next version; Cancel: keep them apart), and the draft remembers the cartridge it joined.

import { safeParse } from 'zod/mini';
import { nameTakenDetails } from '../../contract/index.ts';
import { ApiFailure } from '../lib/errors.ts';
import type { BuilderApi } from './builder-api.ts';
import { joinedCartridge, rememberJoin } from './draft-joins.ts';

export type SavedVersion =
  | { readonly kind: 'saved'; readonly versionId: string; readonly message: string }
  | { readonly kind: 'kept-apart'; readonly message: string };

/** The cartridge a refusal names when the draft's bot_name is one of the caller's (409 `name_taken`). */
function takenName(error: unknown): string | undefined {
  if (!(error instanceof ApiFailure) || error.code !== 'name_taken') return undefined;
  const details = safeParse(nameTakenDetails, error.details);
  return details.success ? details.data.name : undefined;
}

/** Saves the draft (already saved on the server) as a version; `ask` puts the join question to the author. */
export async function saveAsVersion(
  api: BuilderApi,
  draftId: string,
  ask: (question: string) => boolean,
): Promise<SavedVersion> {
  let result: Awaited<ReturnType<BuilderApi['saveVersion']>>;
  try {
    result = await api.saveVersion(draftId, joinedCartridge(draftId));
  } catch (error) {
    const taken = takenName(error);
    if (taken === undefined) throw error;
    const join = ask(
      `You already have a cartridge named “${taken}”, the name this draft gives in yare.yaml (bot_name).\n\nOK: add this draft to “${taken}” as its next version.\nCancel: keep them apart (give the draft a bot_name of its own, then save again).`,
    );
    if (!join)
      return {
        kind: 'kept-apart',
        message: `Not saved: “${taken}” is already one of your cartridges. Change bot_name in yare.yaml to keep this draft apart, or save again and choose to add it as a new version.`,
      };
    result = await api.saveVersion(draftId, taken);
  }
  rememberJoin(draftId, result.version.name);
  const what = result.created ? 'Saved as a new version' : 'This version is already saved';
  return {
    kind: 'saved',
    versionId: result.version.id,
    message: `${what}: ${result.version.name} (${result.version.contentHash.slice(0, 12)})`,
  };
}

/** Hands `blob` to the browser as a download named `name`. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file name of a draft's archive (`My Draft!` → `My-Draft-.zip`). */
export function archiveName(draftName: string): string {
  return `${draftName.replace(/[^A-Za-z0-9._-]+/g, '-') || 'draft'}.zip`;
}
