// The list of commands. HOW TO ADD A COMMAND (lazily, so `mnesos --help` and the other commands stay fast):
//   1. Write the work in its own module, e.g. src/apps/cli/run/<name>.ts exporting `run<Name>(args…, flags)`.
//   2. Add src/apps/cli/commands/<name>.ts exporting `register(program: Command)`: the name, arguments, options
//      and description only. Its static imports are `import type …` and light helpers (../options.ts,
//      ../exit-codes.ts, ../user-error.ts); the action loads the work when the command runs:
//        .action(async (arg, flags) => {
//          const { runName } = await import('../run/<name>.ts');
//          await runName(arg, flags);
//        });
//   3. Add one line here: `import { register as name } from './<name>.ts';` and `name` to the list below.
// test/apps/cli/lazy-commands.test.ts fails when `--help` loads the server, the store or a model SDK.
import type { Command } from 'commander';
import { register as evalCommand } from './eval.ts';
import { register as explore } from './explore.ts';
import { register as exportCommand } from './export.ts';
import { register as generate } from './generate.ts';
import { register as importCommand } from './import.ts';
import { register as ledger } from './ledger.ts';
import { register as lore } from './lore.ts';
import { register as lsp } from './lsp.ts';
import { register as mcp } from './mcp.ts';
import { register as modelEval } from './model-eval.ts';
import { register as newCartridge } from './new.ts';
import { register as pack } from './pack.ts';
import { register as play } from './play.ts';
import { register as runEvent } from './run-event.ts';
import { register as schema } from './schema.ts';
import { register as serve } from './serve.ts';
import { register as session } from './session.ts';
import { register as test } from './test.ts';
import { register as turn } from './turn.ts';
import { register as validate } from './validate.ts';

export const commandModules: ReadonlyArray<(program: Command) => void> = [
  validate,
  runEvent,
  evalCommand,
  ledger,
  turn,
  play,
  serve,
  session,
  test,
  explore,
  newCartridge,
  pack,
  schema,
  lsp,
  mcp,
  importCommand,
  exportCommand,
  generate,
  lore,
  modelEval,
];
