// What a turn's picture shows (docs/voices.md, "Pictures"): the scene as the player read it — the turn's
// narration, the public fields of its state (publicState of src/core/yare/schema.ts: a private field never
// reaches an image provider), the lore sections in play that the narration calls up, and the cartridge's
// `picture_style` line — built into the provider's prompt by src/core/media/picture-prompt.ts.

import { type PictureScene, picturePrompt } from '../../core/media/index.ts';
import { type Dict, publicState } from '../../core/yare/index.ts';
import { loreVerdicts, lookupInPlay } from '../turn/index.ts';
import type { SessionService } from './service.ts';

/** Lore sections a picture's prompt takes at most (the prompt cuts their text to its share too). */
export const PICTURE_LORE_SECTIONS = 2;

/** The scene of one of the principal's turns, and the prompt an image provider gets for it. */
export async function pictureSceneOf(
  service: SessionService,
  principalId: string,
  sessionId: string,
  turnId: string,
): Promise<{ scene: PictureScene; prompt: string }> {
  const session = await service.getSession(principalId, sessionId);
  const turn = await service.getTurn(principalId, sessionId, turnId);
  const { cartridge } = await service.cartridgeOf(session);
  const state = (turn.state ?? {}) as Dict;
  const { result } = await service.worldAt(principalId, sessionId, turnId);
  // No world (a ledger that does not replay): no lore, rather than judging `when:` conditions on nothing.
  const lore =
    !result.ok || turn.narration.trim() === ''
      ? []
      : lookupInPlay(
          cartridge,
          loreVerdicts(cartridge, state, result.world),
          [turn.narration.slice(0, 500)],
          {
            k: PICTURE_LORE_SECTIONS,
          },
        )
          .result.chunks.slice(0, PICTURE_LORE_SECTIONS)
          .map((chunk) => chunk.text);
  const style = cartridge.directives.picture_style;
  const scene: PictureScene = {
    narration: turn.narration,
    publicState: publicState(state, cartridge.rules.schema),
    lore,
    ...(style === undefined ? {} : { style }),
  };
  return { scene, prompt: picturePrompt(scene) };
}
