// The work of `mnesos session speak <id> --out FILE [--turn ID] [--db URL]`: a stored turn's narration read
// aloud into a WAV file (docs/voices.md), by the speech provider the environment sets (MNESOS_SPEECH_URL),
// else espeak-ng. The turn is the session's head unless --turn names one; quoted lines take the voices of
// the cartridge's and the ledger's characters (MNESOS_SPEECH_VOICES), the player's lines the persona's voice. Ctrl-C cancels the reading and writes nothing.

import { writeFileSync } from 'node:fs';
import { localPrincipal } from '../../server/index.ts';
import { CartridgeLibrary, SessionService, speechCastOf } from '../../../engine/session/index.ts';
import { chooseSpeechProvider, MediaError, speakTurn, voiceSettings } from '../../../adapters/media/index.ts';
import { openStore } from '../../../adapters/store/index.ts';
import { EXIT } from '../exit-codes.ts';
import { UserError } from '../user-error.ts';

export interface SessionSpeakFlags {
  out: string;
  turn?: string;
  db?: string;
}

function providerOrExplain(): NonNullable<ReturnType<typeof chooseSpeechProvider>> {
  try {
    const provider = chooseSpeechProvider(process.env);
    if (provider !== undefined) return provider;
  } catch (error) {
    if (error instanceof MediaError) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
  throw new UserError(
    'no speech provider: set MNESOS_SPEECH_URL to an OpenAI-compatible server, or install espeak-ng',
    EXIT.usage,
  );
}

export async function runSessionSpeak(id: string, flags: SessionSpeakFlags): Promise<void> {
  const provider = providerOrExplain();
  const store = await openStore(flags.db ?? process.env.MNESOS_DATABASE_URL);
  const controller = new AbortController();
  const cancel = () => controller.abort();
  process.once('SIGINT', cancel);
  try {
    const principal = await localPrincipal(store);
    const library = new CartridgeLibrary(store);
    const service = new SessionService({ store, library, models: () => null });
    const session = await service.getSession(principal.id, id).catch(() => undefined);
    if (session === undefined) throw new UserError(`session ${id} not found`);
    const turnId = flags.turn ?? session.headTurnId;
    const turn = await service.getTurn(principal.id, id, turnId).catch(() => undefined);
    if (turn === undefined) throw new UserError(`turn ${turnId} of session ${id} not found`);
    const voices = voiceSettings(process.env);
    const cast = await speechCastOf(service, principal.id, id, turnId, voices.npcs);
    const spoken = await speakTurn(provider, turn.narration, cast.names, voices, {
      cast: {
        npcVoices: cast.npcVoices,
        ...(cast.playerVoice === undefined ? {} : { playerVoice: cast.playerVoice }),
      },
      signal: controller.signal,
    });
    writeFileSync(flags.out, spoken.wav);
    const unspoken =
      spoken.plan.unspokenChars > 0 ? `; ${spoken.plan.unspokenChars} characters left unspoken (limits)` : '';
    process.stderr.write(
      `wrote ${flags.out}: ${spoken.plan.requests.length} piece(s) by ${provider.kind === 'espeak' ? 'espeak-ng' : provider.config.baseUrl}${unspoken}\n`,
    );
    await service.close();
  } catch (error) {
    if (error instanceof MediaError) throw new UserError(`speech: ${error.message}`);
    throw error;
  } finally {
    process.off('SIGINT', cancel);
    await store.close();
  }
}
