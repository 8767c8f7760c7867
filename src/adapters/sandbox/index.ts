// The sandbox for rules modules: QuickJS (WebAssembly) in a worker thread runs `yare.js`, esbuild strips
// `yare.ts` types first. It implements the core's RulesSandbox (src/core/cartridge/js-rules/sandbox-port.ts),
// which the cartridge loader takes as an argument.

import type { RulesSandbox } from '../../core/cartridge/index.ts';
import { runRulesModule } from './quickjs.ts';
import { transpileTypeScript } from './transpile.ts';

export { runRulesModule, stopRulesSandbox } from './quickjs.ts';

/** The QuickJS sandbox, as the cartridge loader takes it. */
export const QUICKJS_SANDBOX: RulesSandbox = {
  run: runRulesModule,
  transpile: transpileTypeScript,
};
