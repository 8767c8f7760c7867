// The HTTP contract between the server and the browser client: the zod/mini schemas of the API's answers
// (responses.ts), of its error and health answers (system.ts) and of its event streams (streams.ts). The
// server types its handlers and documents /openapi.json with them; the web client parses every answer and
// every event with them. Pure, with no `node:` module and no server code in its imports
// (test/architecture), so the browser bundles it without pulling the HTTP app, the store or the sessions.
export * from './responses.ts';
export * from './streams.ts';
export * from './system.ts';
export * from './table.ts';
