// The language server and the editor features it serves (completion): the part of authoring that loads
// vscode-languageserver, so a public entry of its own (EXTRA_ENTRIES in test/architecture/policy.ts).
// `mnesos lsp` and the builder's completion load it; `validate --strict` and the rest of authoring do not.
export { complete, hover } from './features.ts';
export type { FileRole } from './project.ts';
export { startLanguageServer } from './server.ts';
