// The HTTP contract between the server and the browser client: the zod/mini schemas of the API's answers
// (responses.ts). The server types its handlers and documents /openapi.json with them; the web client parses
// every answer with them. Pure, with no `node:` module and no server code in its imports (test/architecture),
// so the browser bundles it without pulling the HTTP app, the store or the sessions.
export * from './responses.ts';
