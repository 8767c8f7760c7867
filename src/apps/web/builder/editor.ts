// One CodeMirror 6 editor of the builder: YAML or Markdown by the file's name, the checker's findings as
// squiggles (pushed in with setProblems), and completion from the server (the language server's). Part
// of the builder's own chunk: the play page never loads CodeMirror.

import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { markdownKeymap, markdownLanguage } from '@codemirror/lang-markdown';
import { yaml } from '@codemirror/lang-yaml';
import { type Diagnostic as CmDiagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorSelection } from '@codemirror/state';
import { EditorView, hoverTooltip, keymap } from '@codemirror/view';
import { oneDark } from '@codemirror/theme-one-dark';
import { basicSetup } from 'codemirror';
import type { Problem } from '../lib/errors.ts';
import type { CompletionView } from '../../contract/index.ts';
import { hoverText, problemRange } from './draft-text.ts';

export interface EditorOptions {
  readonly file: string;
  readonly text: string;
  readonly label: string;
  readonly onChange: (text: string) => void;
  /** What to show on hover at an offset (Markdown from the language server; null: nothing). */
  readonly hover?: (text: string, offset: number) => Promise<string | null>;
  /** Ctrl-S / Cmd-S in the editor: save now (instead of the browser's "save page"). */
  readonly onSave?: () => void;
  /** Completions at an offset of the current text (undefined: none for this file). */
  readonly complete?: (text: string, offset: number, signal: AbortSignal) => Promise<CompletionView>;
}

export interface BuilderEditor {
  readonly view: EditorView;
  setProblems(problems: readonly (Problem & { readonly severity: 'error' | 'warning' })[]): void;
  /** Replaces the whole text (a change from outside: the generator). */
  setText(text: string): void;
  /** Moves the cursor to a 1-based line and column and focuses the editor. */
  goTo(line: number, col: number): void;
  destroy(): void;
}

function languageOf(file: string) {
  // The Markdown language itself, not `markdown()`: that one also parses HTML blocks with the HTML, CSS
  // and JavaScript languages, which would more than double the builder's chunk for lore files.
  if (file.endsWith('.md')) return [markdownLanguage, keymap.of(markdownKeymap)];
  if (file.endsWith('.yaml') || file.endsWith('.yml')) return yaml();
  return [];
}

/** Completion from `complete` (the server's), asked only while typing a word or after a trigger character. */
function completionSource(complete: EditorOptions['complete']) {
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    if (!complete) return null;
    const word = context.matchBefore(/[A-Za-z0-9_]*/);
    const before = context.state.sliceDoc(Math.max(0, context.pos - 1), context.pos);
    // Ask only when typing a word, after `.`, `@`, `: ` or a new indented line — or when asked (Ctrl-Space).
    if (!context.explicit && (word === null || word.from === word.to) && !/[.@: -]/.test(before)) return null;
    const controller = new AbortController();
    context.addEventListener('abort', () => controller.abort());
    try {
      const answer = await complete(context.state.doc.toString(), context.pos, controller.signal);
      if (answer.items.length === 0) return null;
      return {
        from: answer.from,
        options: answer.items.map((item) => ({
          label: item.label,
          type: item.kind,
          ...(item.detail ? { detail: item.detail } : {}),
          ...(item.info ? { info: item.info } : {}),
          ...(item.apply ? { apply: item.apply } : {}),
        })),
        validFor: /^[A-Za-z0-9_]*$/,
      };
    } catch {
      return null;
    }
  };
}

/** The hover tooltip: the language server's Markdown for the position, shown as plain text. */
function hoverExtension(hover: EditorOptions['hover']) {
  return hoverTooltip(async (view, pos) => {
    if (!hover) return null;
    const markdown = await hover(view.state.doc.toString(), pos).catch(() => null);
    if (markdown === null) return null;
    return {
      pos,
      above: true,
      create: () => {
        const dom = document.createElement('div');
        dom.className = 'builder-hover';
        // As text (never HTML): the Markdown's emphasis and code marks are dropped for reading.
        dom.textContent = hoverText(markdown);
        return { dom };
      },
    };
  });
}

function editorExtensions(options: EditorOptions) {
  return [
    basicSetup,
    oneDark,
    languageOf(options.file),
    lintGutter(),
    // Long lines wrap: a pane narrower than a rule's line never scrolls sideways as you type, which hid
    // the start of every line.
    EditorView.lineWrapping,
    autocompletion({ override: [completionSource(options.complete)], activateOnTyping: true }),
    hoverExtension(options.hover),
    keymap.of([
      {
        key: 'Mod-s',
        preventDefault: true,
        run: () => {
          options.onSave?.();
          return true;
        },
      },
    ]),
    EditorView.contentAttributes.of({ 'aria-label': options.label, 'data-file': options.file }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) options.onChange(update.state.doc.toString());
    }),
  ];
}

/** The checker's findings as CodeMirror diagnostics over `text`. */
function diagnosticsOf(
  text: string,
  problems: readonly (Problem & { readonly severity: 'error' | 'warning' })[],
): CmDiagnostic[] {
  return problems.map((p) => {
    const range = problemRange(text, p.line, p.col);
    return {
      from: range.from,
      to: range.to,
      severity: p.severity,
      message: `${p.message}${p.code ? ` [${p.code}]` : ''}`,
      source: `${p.file}:${p.line}:${p.col}`,
    };
  });
}

export function createEditor(parent: HTMLElement, options: EditorOptions): BuilderEditor {
  const view = new EditorView({ parent, doc: options.text, extensions: editorExtensions(options) });
  return {
    view,
    setProblems(problems) {
      view.dispatch(setDiagnostics(view.state, diagnosticsOf(view.state.doc.toString(), problems)));
    },
    setText(text) {
      if (text === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    goTo(line, col) {
      const range = problemRange(view.state.doc.toString(), line, col);
      view.dispatch({
        selection: EditorSelection.cursor(range.from),
        effects: EditorView.scrollIntoView(range.from, { y: 'center' }),
      });
      view.focus();
    },
    destroy() {
      view.destroy();
    },
  };
}
