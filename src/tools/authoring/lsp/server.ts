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
  const documents = new TextDocuments(TextDocument);
  const rulesByRoot = new Map<string, CompiledRules>();
  const publishedByRoot = new Map<string, Set<string>>();
  const timers = new Map<string, NodeJS.Timeout>();

  const pathOf = (uri: string): string | undefined =>
    uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  const overlay = (): Map<string, string> => {
    const out = new Map<string, string>();
    for (const doc of documents.all()) {
      const path = pathOf(doc.uri);
      if (path) out.set(path, doc.getText());
    }
    return out;
  };
  const projectOf = (path: string) => new Project(locate(path).root, overlay());
  const documentFor = (path: string, project: Project): TextDocument => {
    const uri = pathToFileURL(path).href;
    return documents.get(uri) ?? TextDocument.create(uri, 'yaml', 0, project.textOf(path) ?? '');
  };

  const check = (root: string) => {
    const project = new Project(root, overlay());
    const { byFile, rules } = project.check(rulesByRoot.get(root));
    if (rules) rulesByRoot.set(root, rules);
    const previous = publishedByRoot.get(root) ?? new Set<string>();
    const now = new Set<string>();
    for (const [file, diagnostics] of byFile) {
      const doc = documentFor(file, project);
      now.add(doc.uri);
      void connection.sendDiagnostics({ uri: doc.uri, diagnostics: diagnostics.map((d) => toLsp(d, doc)) });
    }
    for (const uri of previous) if (!now.has(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
    publishedByRoot.set(root, now);
  };
  const schedule = (uri: string) => {
    const path = pathOf(uri);
    if (!path || locate(path).role === 'other') return;
    const root = locate(path).root;
    clearTimeout(timers.get(root));
    timers.set(
      root,
      setTimeout(() => {
        timers.delete(root);
        check(root);
      }, CHECK_DELAY_MS),
    );
  };

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
  documents.onDidOpen((e) => schedule(e.document.uri));
  documents.onDidChangeContent((e) => schedule(e.document.uri));
  documents.onDidSave((e) => schedule(e.document.uri));

  const context = (uri: string) => {
    const doc = documents.get(uri);
    const path = pathOf(uri);
    if (!doc || !path) return undefined;
    const { root, role } = locate(path);
    if (!rulesByRoot.has(root)) check(root);
    return { doc, path, role, rules: rulesByRoot.get(root) };
  };

  connection.onCompletion((params) => {
    const c = context(params.textDocument.uri);
    if (!c) return [];
    return complete(c.doc.getText(), c.doc.offsetAt(params.position), c.role, c.rules);
  });
  connection.onHover((params) => {
    const c = context(params.textDocument.uri);
    if (!c) return null;
    return hover(c.doc.getText(), c.doc.offsetAt(params.position), c.role, c.rules) ?? null;
  });
  /** Definition and rename work in the rules and the scenario files, over the whole project. */
  const navigable = (uri: string) => {
    const c = context(uri);
    if (!c || (c.role !== 'yare' && c.role !== 'scenario')) return undefined;
    return { ...c, role: c.role, project: projectOf(c.path) };
  };

  connection.onDefinition((params) => {
    const c = navigable(params.textDocument.uri);
    if (!c) return null;
    const { project } = c;
    const found = definition(
      project,
      c.path,
      c.doc.getText(),
      c.doc.offsetAt(params.position),
      c.role,
      c.rules,
    );
    if (!found) return null;
    const target = documentFor(found.path, project);
    const range: Range =
      'start' in found
        ? { start: target.positionAt(found.start), end: target.positionAt(found.end) }
        : {
            start: { line: found.line - 1, character: found.col - 1 },
            end: { line: found.line - 1, character: found.col - 1 },
          };
    return { uri: target.uri, range };
  });
  connection.onRenameRequest((params) => {
    const c = navigable(params.textDocument.uri);
    if (!c) return null;
    const { project } = c;
    const result = rename(
      project,
      c.path,
      c.doc.getText(),
      c.doc.offsetAt(params.position),
      c.role,
      params.newName,
    );
    if (!result.ok) throw new Error(result.message);
    const changes: Record<string, TextEdit[]> = {};
    for (const [path, sites] of result.edits) {
      const doc = documentFor(path, project);
      changes[doc.uri] = sites.map((s) => ({
        range: { start: doc.positionAt(s.start), end: doc.positionAt(s.end) },
        newText: params.newName,
      }));
    }
    return { changes };
  });

  documents.listen(connection);
  connection.listen();
  return connection;
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
