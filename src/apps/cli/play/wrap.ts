// Prose wrapped at word boundaries to the terminal's width, also while it streams in pieces: a word is held
// back until the space (or line end) after it arrives, so "bey|ond" never splits at the screen edge. The
// author's own line breaks are kept; a word longer than a whole line is cut at the width.

/** Narrower than this and wrapping makes prose harder to read, not easier: no wrapping. */
export const MIN_WRAP_WIDTH = 20;
/** Wider lines are hard to read; a wide terminal wraps prose at this column. */
export const MAX_WRAP_WIDTH = 100;

/** The width prose wraps at: the terminal's columns (or `COLUMNS` in a pipe), clamped; 0 means no wrapping. */
export function wrapWidth(columns: number | undefined): number {
  if (columns === undefined || !Number.isFinite(columns) || columns < MIN_WRAP_WIDTH) return 0;
  return Math.min(Math.floor(columns), MAX_WRAP_WIDTH);
}

/** A line starting like this is a list item or a heading: the line break before it is kept. */
const KEEPS_BREAK = /[-*#>|0-9]/;

export class WordWrapper {
  #column = 0;
  #word = '';
  #spaces = 0;
  /** Line breaks seen but not written: one inside a paragraph is a space (Markdown), two end it. */
  #breaks = 0;

  constructor(
    private readonly width: number,
    private readonly write: (text: string) => void,
  ) {}

  /** Takes the next piece of the text; writes every word that is complete. */
  push(text: string): void {
    if (this.width <= 0) {
      this.write(text);
      return;
    }
    let out = '';
    for (const ch of text) {
      if (ch === '\r') continue;
      if (ch === '\n') {
        out += this.#flushWord();
        this.#breaks++;
        this.#spaces = 0;
        continue;
      }
      if (this.#breaks > 0) {
        if (ch === ' ' || ch === '\t') continue; // indentation of the next line
        if (this.#breaks > 1 || KEEPS_BREAK.test(ch) || this.#column === 0) {
          out += '\n'.repeat(Math.min(this.#breaks, 2));
          this.#column = 0;
        } else {
          this.#spaces = 1;
        }
        this.#breaks = 0;
      }
      if (ch === ' ' || ch === '\t') {
        out += this.#flushWord();
        this.#spaces++;
      } else {
        this.#word += ch;
        // A word as long as the line is cut, so nothing ever runs past the edge.
        if (this.#word.length >= this.width) out += this.#flushWord();
      }
    }
    if (out !== '') this.write(out);
  }

  /** Writes the last word (the text ended). */
  end(): void {
    if (this.width <= 0) return;
    const out = this.#flushWord() + '\n'.repeat(Math.min(this.#breaks, 2));
    if (out !== '') this.write(out);
    this.#spaces = 0;
    this.#breaks = 0;
    if (out.endsWith('\n')) this.#column = 0;
  }

  /** The column the next character lands in (0 after a line break). */
  get column(): number {
    return this.#column + (this.#word === '' ? 0 : this.#spaces + this.#word.length);
  }

  #flushWord(): string {
    const word = this.#word;
    if (word === '') return '';
    this.#word = '';
    const gap = this.#column === 0 ? 0 : Math.max(1, this.#spaces);
    this.#spaces = 0;
    if (this.#column > 0 && this.#column + gap + word.length > this.width) {
      this.#column = word.length;
      return `\n${word}`;
    }
    this.#column += gap + word.length;
    return ' '.repeat(gap) + word;
  }
}

/** A whole text wrapped at `width` (0: unchanged). */
export function wrapText(text: string, width: number): string {
  let out = '';
  const wrapper = new WordWrapper(width, (piece) => {
    out += piece;
  });
  wrapper.push(text);
  wrapper.end();
  return out;
}
