// `mnesos generate "<requirements>" <folder> [--from <cartridge>]`: the AI generator. Registration only;
// the work is in ../run/generate.ts.

import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('generate')
    .description(
      'Draft a cartridge from plain English with the configured model; the checker’s errors go back to the model for repair.',
    )
    .argument('<requirements>', 'what the cartridge is about (or, with --from, what to change)')
    .argument('<folder>', 'where to write the four files and the transcript (new or empty)')
    .option('--from <cartridge>', 'change this cartridge folder instead of starting from nothing')
    .option('--rounds <n>', 'repair rounds after the first draft (0–8)', '3')
    .option('--llm-script <file>', 'play model answers from a script file (tests and demos)')
    .option('--force', 'write into a folder that already holds files')
    .option('--json', 'print the result as JSON (progress still goes to stderr)')
    .action(
      async (
        requirements: string,
        folder: string,
        flags: { from?: string; rounds: string; llmScript?: string; force?: boolean; json?: boolean },
      ) => {
        const { runGenerate } = await import('../run/generate.ts');
        await runGenerate(requirements, folder, flags);
      },
    );
}
