// The language server (`mnesos lsp --stdio`): diagnostics as the author types (the loader and linter of
// `mnesos validate`, and the scenario parser, with exact positions), completion, hover, go-to-definition
// and rename, over the Language Server Protocol (vscode-languageserver).

import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createConnection,
  type Diagnostic as LspDiagnostic,
  DiagnosticSeverity,
  type Connection,
  ProposedFeatures,
  type Position,
  type Range,
  TextDocumentSyncKind,
  TextDocuments,
  type TextEdit,
} from 'vscode-languageserver/node.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../../core/diagnostics.ts';
import type { CompiledRules } from '../../../core/yare/index.ts';
import { complete, hover } from './features.ts';
import { definition, rename } from './navigation.ts';
import { locate, Project } from './project.ts';

/** Waits this long after the last keystroke before checking (a burst of typing is checked once). */
const CHECK_DELAY_MS = 150;

export function startLanguageServer(
  connection: Connection = createConnection(ProposedFeatures.all),
): Connection {
  const server = new LanguageServer(connection);
  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: ['.', ' ', ':'] },
      hoverProvider: true,
      definitionProvider: true,
      renameProvider: { prepareProvider: false },
    },
    serverInfo: { name: 'mnesos' },
  }));
  const { documents } = server;
  documents.onDidOpen((e) => server.schedule(e.document.uri));
  documents.onDidChangeContent((e) => server.schedule(e.document.uri));
  documents.onDidSave((e) => server.schedule(e.document.uri));
  connection.onCompletion((params) => {
    const c = server.context(params.textDocument.uri);
    if (!c) return [];
    return complete(c.doc.getText(), c.doc.offsetAt(params.position), c.role, c.rules);
  });
  connection.onHover((params) => {
    const c = server.context(params.textDocument.uri);
    if (!c) return null;
    return hover(c.doc.getText(), c.doc.offsetAt(params.position), c.role, c.rules) ?? null;
  });
  connection.onDefinition((params) => server.definition(params.textDocument.uri, params.position));
  connection.onRenameRequest((params) =>
    server.rename(params.textDocument.uri, params.position, params.newName),
  );
  documents.listen(connection);
  connection.listen();
  return connection;
}

/** The open documents, each project's last compiled rules, and what was published where. */
class LanguageServer {
  readonly documents = new TextDocuments(TextDocument);
  readonly #rulesByRoot = new Map<string, CompiledRules>();
  readonly #publishedByRoot = new Map<string, Set<string>>();
  readonly #timers = new Map<string, NodeJS.Timeout>();

  constructor(readonly connection: Connection) {}

  /** The open documents' texts by path: what the editor shows wins over the disk. */
  overlay(): Map<string, string> {
    const out = new Map<string, string>();
    for (const doc of this.documents.all()) {
      const path = pathOf(doc.uri);
      if (path) out.set(path, doc.getText());
    }
    return out;
  }

  documentFor(path: string, project: Project): TextDocument {
    const uri = pathToFileURL(path).href;
    return this.documents.get(uri) ?? TextDocument.create(uri, 'yaml', 0, project.textOf(path) ?? '');
  }

  /** Checks one project and publishes its diagnostics (clearing files that no longer have any). */
  check(root: string): void {
    const project = new Project(root, this.overlay());
    const { byFile, rules } = project.check(this.#rulesByRoot.get(root));
    if (rules) this.#rulesByRoot.set(root, rules);
    const previous = this.#publishedByRoot.get(root) ?? new Set<string>();
    const now = new Set<string>();
    for (const [file, diagnostics] of byFile) {
      const doc = this.documentFor(file, project);
      now.add(doc.uri);
      void this.connection.sendDiagnostics({
        uri: doc.uri,
        diagnostics: diagnostics.map((d) => toLsp(d, doc)),
      });
    }
    for (const uri of previous)
      if (!now.has(uri)) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    this.#publishedByRoot.set(root, now);
  }

  schedule(uri: string): void {
    const path = pathOf(uri);
    if (!path || locate(path).role === 'other') return;
    const root = locate(path).root;
    clearTimeout(this.#timers.get(root));
    this.#timers.set(
      root,
      setTimeout(() => {
        this.#timers.delete(root);
        this.check(root);
      }, CHECK_DELAY_MS),
    );
  }

  context(uri: string) {
    const doc = this.documents.get(uri);
    const path = pathOf(uri);
    if (!doc || !path) return undefined;
    const { root, role } = locate(path);
    if (!this.#rulesByRoot.has(root)) this.check(root);
    return { doc, path, role, rules: this.#rulesByRoot.get(root) };
  }

  /** Definition and rename work in the rules and the scenario files, over the whole project. */
  navigable(uri: string) {
    const c = this.context(uri);
    if (!c || (c.role !== 'yare' && c.role !== 'scenario')) return undefined;
    return { ...c, role: c.role, project: new Project(locate(c.path).root, this.overlay()) };
  }

  definition(uri: string, position: Position): { uri: string; range: Range } | null {
    const c = this.navigable(uri);
    if (!c) return null;
    const { project } = c;
    const found = definition(project, c.path, c.doc.getText(), c.doc.offsetAt(position), c.role, c.rules);
    if (!found) return null;
    const target = this.documentFor(found.path, project);
    const range: Range =
      'start' in found
        ? { start: target.positionAt(found.start), end: target.positionAt(found.end) }
        : {
            start: { line: found.line - 1, character: found.col - 1 },
            end: { line: found.line - 1, character: found.col - 1 },
          };
    return { uri: target.uri, range };
  }

  rename(uri: string, position: Position, newName: string): { changes: Record<string, TextEdit[]> } | null {
    const c = this.navigable(uri);
    if (!c) return null;
    const { project } = c;
    const result = rename(project, c.path, c.doc.getText(), c.doc.offsetAt(position), c.role, newName);
    if (!result.ok) throw new Error(result.message);
    const changes: Record<string, TextEdit[]> = {};
    for (const [path, sites] of result.edits) {
      const doc = this.documentFor(path, project);
      changes[doc.uri] = sites.map((s) => ({
        range: { start: doc.positionAt(s.start), end: doc.positionAt(s.end) },
        newText: newName,
      }));
    }
    return { changes };
  }
}

function pathOf(uri: string): string | undefined {
  return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
}

/** A loader diagnostic as the editor shows it: the word at its place underlined. */
function toLsp(d: Diagnostic, doc: TextDocument): LspDiagnostic {
  const line = Math.max(0, (d.place?.line ?? 1) - 1);
  const character = Math.max(0, (d.place?.col ?? 1) - 1);
  const lineText = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  const word = /^[^\s,:}\]"'()]*/.exec(lineText.slice(character))?.[0] ?? '';
  return {
    range: { start: { line, character }, end: { line, character: character + Math.max(1, word.length) } },
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    source: 'mnesos',
    message: d.message,
  };
}
