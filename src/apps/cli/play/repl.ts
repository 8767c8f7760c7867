// The read–play loop. Lines come from `node:readline`, so a terminal and a pipe both work: on a terminal
// there is a prompt and Ctrl-C cancels the running turn (or leaves at the prompt); in a pipe there is no
// prompt and the game ends at end of input. A cancelled turn commits nothing.

import { createInterface } from 'node:readline';
import { parseLine } from './commands.ts';
import type { PlayGame } from './game.ts';

export interface ReplIO {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** A terminal: show a prompt and let readline handle keys. */
  readonly terminal: boolean;
  /** Where the process's own SIGINT arrives (process, or a test's emitter). */
  readonly signals?: NodeJS.EventEmitter;
}

export const PROMPT = '> ';

/** `start` runs once the interrupt handlers are in place (the intro), so an early Ctrl-C is handled too. */
export async function runRepl(game: PlayGame, io: ReplIO, start?: () => Promise<void>): Promise<void> {
  const rl = createInterface({
    input: io.input,
    ...(io.terminal ? { output: io.output } : {}),
    terminal: io.terminal,
    prompt: PROMPT,
  });
  let running: AbortController | undefined;
  let stopping = false;
  // Ctrl-C on a terminal: cancel the turn in progress, or leave when idle.
  rl.on('SIGINT', () => {
    if (running !== undefined) running.abort(new Error('cancelled by Ctrl-C'));
    else rl.close();
  });
  // A SIGINT sent to the process (a pipe has no Ctrl-C key): cancel the turn and leave.
  const onSignal = (): void => {
    stopping = true;
    running?.abort(new Error('interrupted'));
    rl.close();
  };
  io.signals?.on('SIGINT', onSignal);
  // Taken before `start` so lines that arrive during the intro are buffered, not dropped.
  const input = rl[Symbol.asyncIterator]();
  try {
    await start?.();
    if (io.terminal && !stopping) rl.prompt();
    for await (const line of { [Symbol.asyncIterator]: () => input }) {
      // Lines already read when the interrupt came are not played.
      if (stopping) break;
      running = new AbortController();
      let outcome: Awaited<ReturnType<PlayGame['handle']>>;
      try {
        outcome = await game.handle(parseLine(line), running.signal);
      } finally {
        running = undefined;
      }
      if (outcome === 'quit' || stopping) break;
      if (io.terminal) rl.prompt();
    }
  } finally {
    io.signals?.off('SIGINT', onSignal);
    rl.close();
  }
}
