// Collects the compiler's findings; the compiler keeps going after an error so an author sees all of them.

import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import type { YareErrorCode } from './errors.ts';

export class DiagnosticSink {
  readonly items: Diagnostic[] = [];

  error(code: YareErrorCode | string, message: string, place: SourcePlace): void {
    this.items.push({ severity: 'error', code, message, place });
  }

  warning(code: string, message: string, place: SourcePlace): void {
    this.items.push({ severity: 'warning', code, message, place });
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }
}

/** The closest candidate by edit distance, for "did you mean …?" hints. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  if (best === undefined) return undefined;
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

export function didYouMean(
  word: string,
  candidates: Iterable<string>,
  render: (c: string) => string = (c) => c,
): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : ` Did you mean \`${render(c)}\`?`;
}

function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}
