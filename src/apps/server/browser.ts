// What the browser client takes from the server module: the schemas of the API's answers (responses.ts),
// which it parses every answer with. A public entry of its own (server/index.ts loads the HTTP app, the
// store and the sessions); pure, with no `node:` module in its imports (test/architecture).
export * from './responses.ts';
export * from './table-responses.ts';
