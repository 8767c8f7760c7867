// `mnesos schema <kind>`: the JSON Schema of yare.yaml, prompt_directives.yaml or a scenario file, for
// editors. Registration only; the work is in ../run/schema.ts.

import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('schema')
    .description('Print the JSON Schema of a cartridge file kind: yare, directives or scenario.')
    .argument('<kind>', 'yare, directives or scenario')
    .action(async (kind: string) => {
      const { runSchema } = await import('../run/schema.ts');
      runSchema(kind);
    });
}
