// The list of command modules. Each exports `register(program)`; keep one command (or one command group)
// per module.
import type { Command } from 'commander';
import { register as evalCommand } from './eval.ts';
import { register as ledger } from './ledger.ts';
import { register as play } from './play.ts';
import { register as runEvent } from './run-event.ts';
import { register as serve } from './serve.ts';
import { register as session } from './session.ts';
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
];
