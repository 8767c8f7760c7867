// What the cartridge loader needs of a sandbox for rules modules (`yare.js` / `yare.ts`): run a module and
// hand back its default export as JSON text, and strip TypeScript types with a way back to the author's
// line:col. The core only describes it; src/adapters/sandbox is the one that runs QuickJS in a worker and
// esbuild, and callers that load cartridges from files pass it in (src/adapters/files does).

import {
  MAX_RULES_JSON_CHARS,
  RULES_SCRIPT_MEMORY_BYTES,
  RULES_SCRIPT_STACK_BYTES,
  RULES_SCRIPT_TIME_MS,
} from './limits.ts';

export interface SandboxLimits {
  readonly timeMs: number;
  readonly memoryBytes: number;
  readonly stackBytes: number;
  readonly maxJsonChars: number;
  /** How long the caller waits before ending the worker; default timeMs + SANDBOX_GRACE_MS. */
  readonly waitMs?: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  timeMs: RULES_SCRIPT_TIME_MS,
  memoryBytes: RULES_SCRIPT_MEMORY_BYTES,
  stackBytes: RULES_SCRIPT_STACK_BYTES,
  maxJsonChars: MAX_RULES_JSON_CHARS,
};

/** Where the module failed: its own code, the default export's shape, or its conversion to JSON. */
export type SandboxPhase = 'evaluate' | 'shape' | 'serialize' | 'internal';

export type SandboxResult =
  | { readonly kind: 'ok'; readonly json: string }
  /** A JavaScript error inside the sandbox (the module threw, or QuickJS stopped it: interrupted, out of
   * memory, stack overflow). `stack` holds QuickJS's `at … (file:line:col)` lines. */
  | {
      readonly kind: 'error';
      readonly phase: SandboxPhase;
      readonly name: string;
      readonly message: string;
      readonly stack: string;
    }
  | { readonly kind: 'too-large'; readonly chars: number }
  /** The worker did not answer in time (the interrupt handler could not stop the module). */
  | { readonly kind: 'timeout'; readonly waitedMs: number }
  /** The engine itself failed; the worker was replaced. */
  | { readonly kind: 'crashed'; readonly message: string };

export type TranspileResult =
  | {
      readonly ok: true;
      readonly code: string;
      /** The TypeScript line:col (1-based) of a line:col (1-based) in `code`. */
      readonly toSource: (line: number, col: number) => { line: number; col: number };
    }
  | { readonly ok: false; readonly errors: readonly { message: string; line: number; col: number }[] };

export interface RulesSandbox {
  /** Runs a rules module synchronously (the loader is synchronous) within `limits`. */
  run(code: string, file: string, limits: SandboxLimits): SandboxResult;
  /** `yare.ts` → JavaScript, types stripped, nothing bundled or resolved. */
  transpile(source: string, file: string): TranspileResult;
}
