// How the chat endpoint gives the event loop back while it reads and places a long chat (docs/deploy.md,
// "Rebases"): a 200-turn chat is a few hundred statements and walks, each small, that would otherwise run as
// one block while every other client waits.

/** Stored turns the placing of a chat asks for between two turns of the event loop. */
export const CHAT_STEPS_PER_SLICE = 25;

/** Resolves on the event loop's next turn, after the I/O waiting (other requests) has been served. */
export function nextTurnOfTheLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
