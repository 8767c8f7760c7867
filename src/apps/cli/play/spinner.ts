// A one-line spinner shown while the Director and the rules work, only on a terminal: in a pipe (tests,
// logs) it writes nothing at all, so the output stays plain lines without escape codes.

/** The part of a stream the spinner needs (process.stdout fits). */
export interface SpinnerStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;
/** Milliseconds per frame: fast enough to look alive, slow enough not to flood a remote terminal. */
export const SPINNER_INTERVAL_MS = 80;
const CLEAR_LINE = '\r\u001b[2K';

export interface Spinner {
  /** Shows (or relabels) the spinner. */
  start(label: string): void;
  /** Clears the spinner's line so the next text starts clean; a no-op when it is not showing. */
  stop(): void;
  readonly active: boolean;
}

export interface SpinnerOptions {
  /** Timer functions (tests pass fakes). */
  readonly setInterval?: (fn: () => void, ms: number) => unknown;
  readonly clearInterval?: (handle: unknown) => void;
}

export function createSpinner(stream: SpinnerStream, options: SpinnerOptions = {}): Spinner {
  const every = options.setInterval ?? ((fn, ms) => setInterval(fn, ms));
  const cancel = options.clearInterval ?? ((handle) => clearInterval(handle as NodeJS.Timeout));
  let handle: unknown;
  let frame = 0;
  let label = '';
  const draw = (): void => {
    stream.write(`${CLEAR_LINE}${SPINNER_FRAMES[frame % SPINNER_FRAMES.length]} ${label}`);
    frame += 1;
  };
  return {
    start(text: string) {
      if (stream.isTTY !== true) return;
      label = text;
      if (handle === undefined) {
        handle = every(draw, SPINNER_INTERVAL_MS);
        // A spinner must never keep the process alive on its own.
        (handle as { unref?: () => void }).unref?.();
      }
      draw();
    },
    stop() {
      if (handle === undefined) return;
      cancel(handle);
      handle = undefined;
      stream.write(CLEAR_LINE);
    },
    get active() {
      return handle !== undefined;
    },
  };
}
