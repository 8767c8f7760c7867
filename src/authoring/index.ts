// Tools built on the engine for cartridge authors: scenario tests and their suite, lint, editor schemas,
// the language server, `new` (scaffold) and `pack`. The CLI and the server import them from here.
