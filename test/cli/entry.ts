// The CLI as the tests run it: `src/cli/main.ts` with the `turn` and `play` commands registered when the
// command list does not have them yet (until src/cli/commands/index.ts lists them; then this adds nothing).
import { commandModules } from '../../src/cli/commands/index.ts';
import { register as play } from '../../src/cli/commands/play.ts';
import { register as turn } from '../../src/cli/commands/turn.ts';

const modules = commandModules as Array<(typeof commandModules)[number]>;
for (const register of [turn, play]) if (!modules.includes(register)) modules.push(register);
await import('../../src/cli/main.ts');
