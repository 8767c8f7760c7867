// A readable line diff between a blessed transcript and the observed one: `-` lines were expected, `+`
// lines were observed, with two lines of context around each change. Longest common subsequence over at
// most MAX_DIFF_LINES lines on each side (quadratic time and memory are bounded by that cap); past it, the
// two texts are compared line by line.

import { MAX_DIFF_LINES, MAX_DIFF_LINES_SHOWN } from './scenario/limits.ts';

type Op = { kind: ' ' | '-' | '+'; line: string; a: number; b: number };

export function lineDiff(expected: string, observed: string, maxShown = MAX_DIFF_LINES_SHOWN): string {
  const a = expected.split('\n');
  const b = observed.split('\n');
  const ops = a.length <= MAX_DIFF_LINES && b.length <= MAX_DIFF_LINES ? lcsOps(a, b) : pairwiseOps(a, b);
  const changed = ops.map((op) => op.kind !== ' ');
  const keep = ops.map((_, i) => {
    for (let d = -2; d <= 2; d++) if (changed[i + d]) return true;
    return false;
  });
  const out: string[] = [];
  let skipped = false;
  for (const [i, op] of ops.entries()) {
    if (!keep[i]) {
      skipped = true;
      continue;
    }
    if (skipped) out.push(`@@ line ${op.a + 1} @@`);
    skipped = false;
    out.push(`${op.kind} ${op.line}`);
  }
  if (out.length > maxShown) {
    const rest = out.length - maxShown;
    return [...out.slice(0, maxShown), `… ${rest} more diff line${rest === 1 ? '' : 's'}`].join('\n');
  }
  return out.join('\n');
}

function lcsOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const table = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[at(i, j)] =
        a[i] === b[j] ? table[at(i + 1, j + 1)]! + 1 : Math.max(table[at(i + 1, j)]!, table[at(i, j + 1)]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) ops.push({ kind: ' ', line: a[i++]!, a: i - 1, b: j++ });
    else if (table[at(i + 1, j)]! >= table[at(i, j + 1)]!)
      ops.push({ kind: '-', line: a[i++]!, a: i - 1, b: j });
    else ops.push({ kind: '+', line: b[j++]!, a: i, b: j - 1 });
  }
  while (i < n) ops.push({ kind: '-', line: a[i++]!, a: i - 1, b: j });
  while (j < m) ops.push({ kind: '+', line: b[j++]!, a: i, b: j - 1 });
  return ops;
}

function pairwiseOps(a: string[], b: string[]): Op[] {
  const ops: Op[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) ops.push({ kind: ' ', line: a[i]!, a: i, b: i });
    else {
      if (i < a.length) ops.push({ kind: '-', line: a[i]!, a: i, b: i });
      if (i < b.length) ops.push({ kind: '+', line: b[i]!, a: i, b: i });
    }
  }
  return ops;
}
