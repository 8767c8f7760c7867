// PLACEHOLDER — being written by the lead. Compiles the parsed `yare.yaml` document into checked rules.
import type { Document, LineCounter } from 'yaml';
import type { Diagnostic } from '../diagnostics.ts';

export interface CompiledRules {
  readonly eventNames: readonly string[];
}

export interface RulesSource {
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
}

export interface CompileRulesOptions {
  /** Checks a note template for prompt injection; returns a message when it should be refused. */
  readonly checkInjection?: (text: string) => string | undefined;
}

export function compileRules(_source: RulesSource, _options: CompileRulesOptions = {}): {
  rules?: CompiledRules;
  diagnostics: Diagnostic[];
} {
  return { rules: { eventNames: [] }, diagnostics: [] };
}
