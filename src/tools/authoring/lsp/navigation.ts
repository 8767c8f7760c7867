// Go-to-definition (macros, events, `call` targets, state fields) and rename of an event or a macro across
// the cartridge: yare.yaml and every scenario file in tests/.

import { type CompiledRules, IDENTIFIER } from '../../../core/yare/index.ts';
import type { Project } from './project.ts';
import { indexRules, indexScenario, type SymbolKind, type SymbolSite } from './symbols.ts';
import { segmentsUpTo, tokenAt } from './text.ts';

export interface SiteInFile {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

/** The event or macro under the cursor, if any. */
export function symbolAt(
  path: string,
  text: string,
  offset: number,
  role: 'yare' | 'scenario',
): { kind: SymbolKind; name: string; start: number; end: number } | undefined {
  const sites = role === 'yare' ? indexRules(text) : indexScenario(text);
  const hit = sites.find((s) => s.start <= offset && offset <= s.end);
  if (hit) return hit;
  void path;
  return undefined;
}

export function definition(
  project: Project,
  path: string,
  text: string,
  offset: number,
  role: 'yare' | 'scenario',
  rules: CompiledRules | undefined,
): SiteInFile | { path: string; line: number; col: number } | undefined {
  const symbol = symbolAt(path, text, offset, role);
  const yareText = project.textOf(project.yarePath) ?? '';
  if (symbol) {
    const decl = indexRules(yareText).find(
      (s) => s.role === 'declaration' && s.kind === symbol.kind && s.name === symbol.name,
    );
    return decl ? { path: project.yarePath, start: decl.start, end: decl.end } : undefined;
  }
  const token = tokenAt(text, offset);
  if (!token || !rules) return undefined;
  const segments = segmentsUpTo(token, offset);
  if (segments[0] === 'state' && segments.length > 1) {
    let node = rules.schema as import('../../../core/yare/index.ts').SchemaNode;
    for (const segment of segments.slice(1)) {
      if (node.kind !== 'domain') break;
      const next = node.children.get(segment);
      if (!next) return undefined;
      node = next;
    }
    return { path: project.yarePath, line: node.place.line, col: node.place.col };
  }
  return undefined;
}

export type RenameResult = { ok: true; edits: Map<string, SymbolSite[]> } | { ok: false; message: string };

export function rename(
  project: Project,
  path: string,
  text: string,
  offset: number,
  role: 'yare' | 'scenario',
  newName: string,
): RenameResult {
  const symbol = symbolAt(path, text, offset, role);
  if (!symbol)
    return { ok: false, message: 'Only an event or a macro can be renamed; put the cursor on its name.' };
  if (!IDENTIFIER.test(newName))
    return {
      ok: false,
      message: `'${newName}' is not a valid name: letters, digits and _, not starting with a digit.`,
    };
  const yareText = project.textOf(project.yarePath) ?? '';
  const rules = indexRules(yareText);
  if (rules.some((s) => s.role === 'declaration' && s.kind === symbol.kind && s.name === newName))
    return {
      ok: false,
      message: `There is already ${symbol.kind === 'event' ? 'an event' : 'a macro'} named '${newName}'.`,
    };
  const edits = new Map<string, SymbolSite[]>();
  const same = (s: SymbolSite) => s.kind === symbol.kind && s.name === symbol.name;
  edits.set(project.yarePath, rules.filter(same));
  if (symbol.kind === 'event') {
    for (const scenario of project.scenarioPaths()) {
      const t = project.textOf(scenario);
      if (t === undefined) continue;
      const sites = indexScenario(t).filter(same);
      if (sites.length > 0) edits.set(scenario, sites);
    }
  }
  return { ok: true, edits };
}
