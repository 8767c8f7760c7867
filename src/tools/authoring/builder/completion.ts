// Completion for the builder's editors, from the language server's own completion (src/tools/authoring/lsp):
// keys and enum values from the editor schemas, and — given rules that compiled — state paths, inputs,
// macros, functions and event names. The builder sends the rules text that last compiled, so completion
// still knows the state schema while the file being typed is broken (as the language server keeps its
// last good rules). Only a yare.yaml is compiled here (this runs on the request thread).

import { CompletionItemKind } from 'vscode-languageserver/node.js';
import { complete, type FileRole, hover } from '../lsp/index.ts';
import { CARTRIDGE_FILES } from '../../../core/cartridge/index.ts';
import { compileDraftRules } from './draft-rules.ts';

/** Completions returned at most (the client filters them as the author types on). */
export const MAX_COMPLETIONS = 500;
/** Characters of the line before the cursor that completion reads; on a longer line it offers nothing. */
export const MAX_COMPLETION_LINE_CHARS = 4_000;

export type CompletionKind =
  | 'key'
  | 'value'
  | 'field'
  | 'domain'
  | 'macro'
  | 'input'
  | 'event'
  | 'function'
  | 'keyword';

export interface BuilderCompletion {
  readonly label: string;
  readonly kind: CompletionKind;
  readonly detail?: string;
  readonly info?: string;
  /** The text inserted (the label when absent). */
  readonly apply?: string;
}

export interface CompletionAnswer {
  /** Offset where the completed word starts (the client replaces from there to the cursor). */
  readonly from: number;
  readonly items: readonly BuilderCompletion[];
}

function kindOf(kind: CompletionItemKind | undefined): CompletionKind {
  switch (kind) {
    case CompletionItemKind.Field:
      return 'field';
    case CompletionItemKind.Module:
      return 'domain';
    case CompletionItemKind.Constant:
      return 'macro';
    case CompletionItemKind.Variable:
      return 'input';
    case CompletionItemKind.Event:
      return 'event';
    case CompletionItemKind.Function:
      return 'function';
    case CompletionItemKind.Keyword:
      return 'keyword';
    case CompletionItemKind.EnumMember:
      return 'value';
    default:
      return 'key';
  }
}

function roleOf(file: string): FileRole {
  return CARTRIDGE_FILES.find((s) => s.name === file)?.kind ?? 'other';
}

function docText(doc: unknown): string | undefined {
  if (typeof doc === 'string') return doc;
  if (typeof doc === 'object' && doc !== null && typeof (doc as { value?: unknown }).value === 'string')
    return (doc as { value: string }).value;
  return undefined;
}

/** The rules for completion and hover: a yare.yaml only (see builderCompletions). */
function yamlRules(rulesFiles: Readonly<Record<string, string | undefined>> | undefined) {
  const yare = rulesFiles?.['yare.yaml'];
  const compiled = yare === undefined ? undefined : compileDraftRules({ 'yare.yaml': yare });
  return compiled?.ok ? compiled.rules : undefined;
}

/**
 * What the language server shows on hover at `offset` (Markdown): a state path's type, range and
 * visibility, a macro's expression, an input, a function's usage, an event, a key's documentation.
 */
export function builderHover(input: {
  file: string;
  text: string;
  offset: number;
  rulesFiles?: Readonly<Record<string, string | undefined>>;
}): { markdown: string } | null {
  const offset = Math.max(0, Math.min(input.offset, input.text.length));
  const lineStart = input.text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = input.text.indexOf('\n', offset);
  if (lineEnd === -1) lineEnd = input.text.length;
  if (lineEnd - lineStart > MAX_COMPLETION_LINE_CHARS) return null;
  const found = hover(input.text, offset, roleOf(input.file), yamlRules(input.rulesFiles));
  if (!found) return null;
  const contents = found.contents;
  const markdown =
    typeof contents === 'object' &&
    contents !== null &&
    'value' in contents &&
    typeof contents.value === 'string'
      ? contents.value
      : undefined;
  return markdown === undefined ? null : { markdown };
}

/** Completions at `offset` of `text` (file `file`), with the rules compiled from `rulesFiles` if given. */
export function builderCompletions(input: {
  file: string;
  text: string;
  offset: number;
  rulesFiles?: Readonly<Record<string, string | undefined>>;
}): CompletionAnswer {
  const offset = Math.max(0, Math.min(input.offset, input.text.length));
  const lineStart = input.text.lastIndexOf('\n', offset - 1) + 1;
  if (offset - lineStart > MAX_COMPLETION_LINE_CHARS) return { from: offset, items: [] };
  let from = offset;
  while (from > lineStart && /[A-Za-z0-9_]/.test(input.text[from - 1]!)) from--;
  // Only yare.yaml: rules in yare.js/yare.ts would run the sandbox, which holds its caller (the request
  // thread here) for up to its time limit; the builder's completion is for the YAML rules anyway.
  const rules = yamlRules(input.rulesFiles);
  const items = complete(input.text, offset, roleOf(input.file), rules)
    .slice(0, MAX_COMPLETIONS)
    .map((item) => {
      const info = docText(item.documentation);
      return {
        label: item.label,
        kind: kindOf(item.kind),
        ...(item.detail ? { detail: item.detail } : {}),
        ...(info ? { info } : {}),
        ...(item.insertText && item.insertText !== item.label ? { apply: item.insertText } : {}),
      };
    });
  return { from, items };
}
