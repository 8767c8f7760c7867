// The `mnesos` program: its commands, options and failure handling, without side effects (main.ts is the
// process entry; tests run `main` in-process). Each command registers itself from its own module under `commands/` and loads
// its work only when it runs (commands/index.ts says how to add one). Exit codes (README.md): 0 ok, 1 user
// error, 2 usage, 3 model/provider failure.
//
// Failures a user can cause (a port in use, an unreachable database, a missing cartridge) print one or two
// lines and no stack trace; `--debug` or MNESOS_DEBUG=1 adds the stack. Anything else is a bug: one line
// saying so, and the stack with --debug. Output cut short by the reader (`mnesos … | head`) stops quietly.

import { Command, CommanderError } from 'commander';
import { commandModules } from './commands/index.ts';
import { EXIT } from './exit-codes.ts';
import { userFacing } from './user-error.ts';
import { packageVersion } from './version.ts';

export function buildProgram(): Command {
  const program = new Command('mnesos')
    .description('MnesOS: role-playing games run by language models, with rules as data.')
    .version(packageVersion(), '-V, --version', 'print the version of mnesos')
    .option('--debug', 'print the stack trace of any failure (also MNESOS_DEBUG=1)')
    .showHelpAfterError()
    .exitOverride();
  for (const register of commandModules) register(program);
  return program;
}

/** True when stack traces are wanted: `--debug` anywhere before `--`, or MNESOS_DEBUG=1. */
export function debugRequested(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const end = argv.indexOf('--');
  return (
    (end === -1 ? argv : argv.slice(0, end)).includes('--debug') ||
    env.MNESOS_DEBUG === '1' ||
    env.MNESOS_DEBUG === 'true'
  );
}

/** The lines printed for a failure that escaped a command, and its exit code. */
export function describeFailure(error: unknown, debug: boolean): { text: string; exitCode: number } {
  const stack = debug && error instanceof Error && error.stack ? `\n${error.stack}` : '';
  const user = userFacing(error);
  if (user) return { text: `${user.message}${stack}\n`, exitCode: user.exitCode };
  const message = error instanceof Error ? error.message : String(error);
  const hint = debug ? '' : '\n(run again with --debug or MNESOS_DEBUG=1 for the stack trace, and report it)';
  return { text: `mnesos: unexpected error: ${message}${hint}${stack}\n`, exitCode: EXIT.user };
}

/**
 * A reader that stops reading (`mnesos run-event … | head -2`) closes the pipe: the next write fails with
 * EPIPE. That is not a failure of the command: stop quietly with exit 0.
 */
export function stopQuietlyOnClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(EXIT.ok);
      throw error;
    });
  }
}

export async function main(argv: string[]): Promise<number> {
  const debug = debugRequested(argv);
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
    const failure = describeFailure(error, debug);
    process.stderr.write(failure.text);
    return failure.exitCode;
  }
}
