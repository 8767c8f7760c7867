// The turn's notes as the Narrator model reads them. The Narrator sees public state only, so a value of a
// note the run marked private (`RunResult.privateNotes`, src/core/yare/run/privacy.ts) is replaced by a
// mark: the stage direction stays whole ("The dial reads (hidden).") and the value never reaches the
// prompt. The offline narrator, which shows notes to the player as prose, leaves such sentences out
// instead (offline/notes.ts).

/** What stands in a note where a private value was. */
export const HIDDEN_VALUE = '(hidden)';

/** A note with the values at `spans` ([start, end) pairs, in order) replaced by HIDDEN_VALUE. */
export function withValuesHidden(note: string, spans: readonly number[] | undefined): string {
  if (spans === undefined || spans.length === 0) return note;
  let out = '';
  let from = 0;
  for (let i = 0; i < spans.length; i += 2) {
    const start = Math.max(from, spans[i]!);
    out += note.slice(from, start) + HIDDEN_VALUE;
    from = Math.max(start, spans[i + 1]!);
  }
  return out + note.slice(from);
}

/** The notes with their private values hidden (`privateSpans` by note index). */
export function notesForNarrator(
  notes: readonly string[],
  privateSpans: ReadonlyMap<number, readonly number[]>,
): string[] {
  if (privateSpans.size === 0) return [...notes];
  return notes.map((note, i) => withValuesHidden(note, privateSpans.get(i)));
}
