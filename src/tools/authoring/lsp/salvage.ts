// Rules for completion, hover and definition when yare.yaml does not compile and has not compiled since
// the editor opened it (a file opened broken): the same compiler runs again on the same text with whole
// top-level sections blanked out, line for line, so every place stays where the author sees it — first
// only the sections that hold an error, then all but `state_schema` and `macros`, then all but
// `state_schema`. At most four compilations, each of a text no longer than the file.

import type { Diagnostic } from '../../../core/diagnostics.ts';
import type { CompiledRules } from '../../../core/yare/index.ts';

export type RulesAttempt =
  | { readonly ok: true; readonly rules: CompiledRules }
  | { readonly ok: false; readonly errors: readonly Diagnostic[] };

const TOP_LEVEL_KEY = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:/;
const FALLBACK_SECTIONS: readonly ReadonlySet<string>[] = [
  new Set(['state_schema', 'macros']),
  new Set(['state_schema']),
];

export function salvageRules(
  text: string | undefined,
  compile: (yare: string) => RulesAttempt,
): CompiledRules | undefined {
  if (text === undefined) return undefined;
  const whole = compile(text);
  if (whole.ok) return whole.rules;
  const lines = text.split('\n');
  const sectionOf: (string | undefined)[] = [];
  let current: string | undefined;
  for (const line of lines) {
    const key = TOP_LEVEL_KEY.exec(line);
    if (key) current = key[1];
    sectionOf.push(current);
  }
  const attempt = (keep: (section: string | undefined) => boolean): CompiledRules | undefined => {
    const result = compile(lines.map((line, i) => (keep(sectionOf[i]) ? line : '')).join('\n'));
    return result.ok ? result.rules : undefined;
  };
  const broken = new Set<string | undefined>();
  for (const d of whole.errors) {
    const line = d.place?.line;
    if (line !== undefined && line >= 1 && line <= lines.length) broken.add(sectionOf[line - 1]);
  }
  if (broken.size > 0 && !broken.has(undefined)) {
    const rules = attempt((section) => !broken.has(section));
    if (rules) return rules;
  }
  for (const sections of FALLBACK_SECTIONS) {
    const rules = attempt((section) => section !== undefined && sections.has(section));
    if (rules) return rules;
  }
  return undefined;
}
