// Who speaks in a session's turn and in which voice (docs/voices.md, "Who speaks"): the names a quoted line
// can be given to — the cartridge's characters and the ledger's entities as the session's world stands at
// the turn (src/core/media/speakers.ts) — the voices set for them by any name they go by, and the player's
// voice from the session's persona (its `voice`). Read once per reading; the voices themselves are the
// server's or the terminal's settings (src/adapters/media/config.ts).

import { castVoices, speakerEntities, speakerNames } from '../../core/media/index.ts';
import type { Cartridge } from '../../core/cartridge/index.ts';
import type { World } from '../../core/ledger/index.ts';
import type { SessionService } from './service.ts';

export interface SpeechCastOfSession {
  readonly cartridge: Cartridge;
  /** Names a quoted line can be given to. */
  readonly names: readonly string[];
  readonly npcVoices: ReadonlyMap<string, string>;
  /** The persona's own voice, when it has one. */
  readonly playerVoice?: string;
}

/**
 * The cast of one of the principal's sessions at a turn: `worldTurnId` is the turn whose world names the
 * entities (a turn still streaming reads its parent's). `configured`: the NPC voices set by name.
 */
export async function speechCastOf(
  service: SessionService,
  principalId: string,
  sessionId: string,
  worldTurnId: string,
  configured: ReadonlyMap<string, string>,
): Promise<SpeechCastOfSession> {
  const session = await service.getSession(principalId, sessionId);
  const { cartridge } = await service.cartridgeOf(session);
  const { result } = await service.worldAt(principalId, sessionId, worldTurnId);
  // A ledger that does not replay names no one beyond the cartridge's own characters.
  const world: World | undefined = result.ok ? result.world : undefined;
  const persona = await service.persona(principalId, session.personaId);
  const playerVoice = persona?.voice;
  return {
    cartridge,
    names: speakerNames(cartridge, world),
    npcVoices: castVoices(speakerEntities(cartridge, world), configured),
    ...(playerVoice === undefined ? {} : { playerVoice }),
  };
}
