// The `mnesos` command line. Each command lives in its own module under `commands/` and registers itself
// on the program. Exit codes (DESIGN.md): 0 ok, 1 user error, 2 usage, 3 model/provider failure.

import { Command, CommanderError } from 'commander';
import { commandModules } from './commands/index.ts';
import { EXIT } from './exit-codes.ts';
import { UserError } from './user-error.ts';

export function buildProgram(): Command {
  const program = new Command('mnesos')
    .description('MnesOS: role-playing games run by language models, with rules as data.')
    .showHelpAfterError()
    .exitOverride();
  for (const register of commandModules) register(program);
  return program;
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return EXIT.ok;
      }
      return EXIT.usage;
    }
    if (error instanceof UserError) {
      process.stderr.write(`${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
