// Markdown emphasis in the terminal, as the web client renders it: `*quiet*` in italics, `**loud**` in bold,
// the asterisks gone (also without colours: a card's `*she smiles*` should not read as raw markup). Works on
// streamed pieces: a run of asterisks is held until the character after it says whether it opens, closes
// or is just a star ("5 * 3", a "* item" list line). Never spans paragraphs: a blank line ends emphasis.

/** The two styles used (picocolors' `createColors()` has them; off, they return the text as it is). */
export interface EmphasisColors {
  readonly italic: (text: string) => string;
  readonly bold: (text: string) => string;
}

interface Style {
  readonly open: string;
  readonly close: string;
}

function styleOf(wrap: (text: string) => string): Style {
  const [open = '', close = ''] = wrap('\u0000').split('\u0000');
  return { open, close };
}

/** Asterisk runs longer than this are literal (a "***" scene break, "*****"). */
const MAX_EMPHASIS_RUN = 3;

export class EmphasisStyler {
  readonly #styles: readonly [Style, Style, Style];
  /** Runs open now, innermost last (1 italic, 2 bold, 3 both). */
  readonly #open: number[] = [];
  #stars = 0;
  /** The character before the held stars ('' at the start of the text). */
  #before = '';
  #newlines = 0;

  constructor(colors: EmphasisColors) {
    const italic = styleOf(colors.italic);
    const bold = styleOf(colors.bold);
    this.#styles = [italic, bold, { open: bold.open + italic.open, close: italic.close + bold.close }];
  }

  /** The piece with its complete emphasis marks turned into styles; a trailing run of stars is held. */
  push(text: string): string {
    let out = '';
    for (const ch of text) {
      if (ch === '*') {
        this.#stars++;
        continue;
      }
      if (this.#stars > 0) out += this.#resolve(ch);
      out += this.#afterChar(ch);
    }
    return out;
  }

  /** The end of the text: held stars are resolved, and anything still open is closed. */
  end(): string {
    let out = this.#stars > 0 ? this.#resolve('') : '';
    out += this.#closeAll();
    this.#before = '';
    return out;
  }

  #afterChar(ch: string): string {
    this.#before = ch;
    if (ch !== '\n') {
      if (ch.trim() !== '') this.#newlines = 0;
      return ch;
    }
    this.#newlines++;
    // A paragraph break ends any emphasis an author left open.
    return this.#newlines >= 2 ? this.#closeAll() + ch : ch;
  }

  #resolve(next: string): string {
    const n = this.#stars;
    this.#stars = 0;
    const spaceBefore = this.#before === '' || /[\s([{"“'‘—-]/.test(this.#before);
    const spaceAfter = next === '' || /\s/.test(next);
    if (n <= MAX_EMPHASIS_RUN && this.#open.at(-1) === n && !spaceBefore) {
      this.#open.pop();
      return this.#styles[n - 1]!.close;
    }
    if (n <= MAX_EMPHASIS_RUN && spaceBefore && !spaceAfter && !this.#open.includes(n)) {
      this.#open.push(n);
      return this.#styles[n - 1]!.open;
    }
    return '*'.repeat(n);
  }

  #closeAll(): string {
    let out = '';
    while (this.#open.length > 0) out += this.#styles[this.#open.pop()! - 1]!.close;
    return out;
  }
}

/** A whole text with its emphasis rendered. */
export function renderEmphasis(text: string, colors: EmphasisColors): string {
  const styler = new EmphasisStyler(colors);
  return styler.push(text) + styler.end();
}
