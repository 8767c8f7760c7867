// `mnesos play [cartridge] [--session NAME] [--db URL] [--llm-script f] [--seed N]`: the terminal game.
// Sessions live in the same store as the server (`./.mnesos/mnesos.db` by default), owned by the same local
// user, so a game started here can be continued in the browser and the other way round.

import type { Command } from 'commander';
import pc from 'picocolors';
import { localPrincipal } from '../../server/auth.ts';
import { CartridgeLibrary } from '../../session/library.ts';
import { countingSeeds } from '../../session/seeds.ts';
import { SessionService } from '../../session/service.ts';
import { StoreInputError } from '../../store/errors.ts';
import { openStore } from '../../store/open.ts';
import type { Store } from '../../store/repository.ts';
import { parseSeed } from '../options.ts';
import { PlayGame } from '../play/game.ts';
import { chooseModels } from '../play/models.ts';
import { openPlaySession } from '../play/open-session.ts';
import { runRepl } from '../play/repl.ts';
import { createSpinner } from '../play/spinner.ts';
import { UserError } from '../user-error.ts';

interface PlayFlags {
  session?: string;
  db?: string;
  llmScript?: string;
  seed?: number;
}

async function open(url: string | undefined): Promise<Store> {
  try {
    return await openStore(url);
  } catch (error) {
    if (error instanceof StoreInputError) throw new UserError(`--db / MNESOS_DATABASE_URL: ${error.message}`);
    throw error;
  }
}

export function register(program: Command): void {
  program
    .command('play')
    .description('Play a cartridge in the terminal (offline with no model configured).')
    .argument('[cartridge]', 'cartridge folder or shipped cartridge name (default: the demo, lanternmere)')
    .option('--session <name>', 'resume the session of this name (or id); created when new')
    .option('--db <url>', 'where sessions are stored: a SQLite file, sqlite:PATH or postgres://… (default ./.mnesos/mnesos.db)')
    .option('--llm-script <file>', 'play scripted model responses from this file (tests and demos)')
    .option('--seed <n>', 'dice seed of the first turn; later turns count up from it (default: random)', parseSeed)
    .action(async (cartridgeArg: string | undefined, flags: PlayFlags) => {
      // A closed pipe (`mnesos play | head`) ends the game quietly; a committed turn is already stored whole.
      process.stdout.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE') process.exit(0);
        throw error;
      });
      const choice = chooseModels({ llmScript: flags.llmScript, env: process.env });
      const store = await open(flags.db ?? process.env.MNESOS_DATABASE_URL);
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
        });
        const terminal = process.stdout.isTTY === true && process.stdin.isTTY === true;
        const colors = pc.createColors(process.stdout.isTTY === true && process.env.NO_COLOR === undefined);
        const game = new PlayGame({
          service,
          store,
          principalId: principal.id,
          sessionId: opened.session.id,
          choice,
          out: { write: (text) => process.stdout.write(text) },
          spinner: createSpinner(process.stdout),
          colors,
        });
        await game.intro(opened);
        await runRepl(game, { input: process.stdin, output: process.stdout, terminal, signals: process });
      } finally {
        await store.close();
      }
    });
}
