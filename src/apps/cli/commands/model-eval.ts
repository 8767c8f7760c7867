// `mnesos model-eval <cartridge> [--suite f.yaml] [--compare MODEL] [--seed N] [--json]`: scores the
// configured model (every role as in play) on labelled cases. Registration only; the work is in
// ../run/model-eval.ts, imported when the command runs.

import type { Command } from 'commander';
import type { ModelEvalFlags } from '../run/model-eval.ts';
import { parseSeed } from '../options.ts';

export function register(program: Command): void {
  program
    .command('model-eval')
    .description(
      "Score the configured model on labelled cases: Director accuracy, tool-call health, ledger proposals, narration fidelity, latency and tokens (default suite: the cartridge's intents and scenarios, plus a general suite).",
    )
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .option('--suite <file>', 'a suite file: cases: [{input, expect: {event, inputs?}, state?, history?}]')
    .option('--compare <model>', 'run the same cases again with this model for every role, and compare')
    .option('--seed <n>', 'dice seed of every case', parseSeed, 0)
    .option('--json', 'print the report as one JSON document')
    .action(async (cartridgeArg: string, flags: ModelEvalFlags) => {
      const { runModelEval } = await import('../run/model-eval.ts');
      await runModelEval(cartridgeArg, flags);
    });
}
