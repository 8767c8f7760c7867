// Tools built on the engine for cartridge authors: scenario tests and their suite, lint, editor schemas,
// the language server, `new` (scaffold) and `pack`. The CLI and the server import them from here.
export { scaffoldCartridge, TEMPLATES_DIR, templateNames } from './scaffold.ts';
export { packCartridge, writeZip } from './pack.ts';
export { isSchemaKind, jsonSchemaOf, SCHEMA_KINDS } from './schema/index.ts';
export { runSuite, scenarioFiles, type SuiteCase } from './suite.ts';
