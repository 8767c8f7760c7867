// The list of command modules. Each exports `register(program)`; keep one command (or one command group)
// per module.
import type { Command } from 'commander';

export const commandModules: ReadonlyArray<(program: Command) => void> = [];
