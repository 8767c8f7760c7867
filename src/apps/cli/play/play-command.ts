// The terminal game (`mnesos play`): models, store, local player, session, then the read–play loop.
// Sessions live in the same store as the server (`./.mnesos/mnesos.db` by default), owned by the same local
// user, so a game started here can be continued in the browser and the other way round.

import pc from 'picocolors';
import { localPrincipal } from '../../server/index.ts';
import { CartridgeLibrary, countingSeeds, SessionService } from '../../../engine/session/index.ts';
import { openCommandStore } from '../open-store.ts';
import { PlayGame, type PlayGameOptions } from './game.ts';
import { chooseModels } from './models.ts';
import { checkSessionName, openPlaySession } from './open-session.ts';
import { runRepl } from './repl.ts';
import { createSpinner } from './spinner.ts';
import { wrapWidth } from './wrap.ts';

export interface PlayFlags {
  session?: string;
  db?: string;
  llmScript?: string;
  seed?: number;
  /** Opening message of a new game: 0 = first-message.md, n = alternate greeting n. */
  greeting?: number;
  /** Refuse a turn that breaks an invariant of the cartridge (`invariants:` in yare.yaml). */
  strict?: boolean;
}

export async function runPlayCommand(cartridgeArg: string | undefined, flags: PlayFlags): Promise<void> {
  // A closed pipe (`mnesos play | head`) ends the game quietly; a committed turn is already stored whole.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  // Checked before anything is opened or created: a bad name is a usage error with nothing left behind.
  if (flags.session !== undefined) checkSessionName(flags.session);
  const choice = await chooseModels({ llmScript: flags.llmScript, env: process.env });
  const store = await openCommandStore(flags.db ?? process.env.MNESOS_DATABASE_URL);
  try {
    const principal = await localPrincipal(store);
    const library = new CartridgeLibrary(store);
    const service = new SessionService({
      store,
      library,
      models: () => choice.models,
      ...(flags.seed === undefined ? {} : { seeds: countingSeeds(flags.seed) }),
    });
    const opened = await openPlaySession({
      store,
      library,
      service,
      principalId: principal.id,
      cartridgeArg,
      sessionName: flags.session,
      ...(flags.greeting === undefined ? {} : { greeting: flags.greeting }),
    });
    const game = terminalGame(
      { service, store, principalId: principal.id, sessionId: opened.session.id, choice },
      flags,
    );
    const terminal = process.stdout.isTTY === true && process.stdin.isTTY === true;
    await runRepl(game, { input: process.stdin, output: process.stdout, terminal, signals: process }, () =>
      game.intro(opened),
    );
  } finally {
    await store.close();
  }
}

/** The game on this process's terminal: its output, spinner, colours (unless NO_COLOR) and width. */
function terminalGame(
  session: Pick<PlayGameOptions, 'service' | 'store' | 'principalId' | 'sessionId' | 'choice'>,
  flags: PlayFlags,
): PlayGame {
  const colors = pc.createColors(process.stdout.isTTY === true && process.env.NO_COLOR === undefined);
  return new PlayGame({
    ...session,
    out: { write: (text) => process.stdout.write(text) },
    spinner: createSpinner(process.stdout),
    colors,
    ...(flags.strict === true ? { strict: true } : {}),
    // Prose wraps at the terminal's width; in a pipe only when COLUMNS says how wide.
    width: wrapWidth(
      process.stdout.isTTY ? process.stdout.columns : Number(process.env.COLUMNS) || undefined,
    ),
  });
}
