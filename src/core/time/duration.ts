// The one grammar of a duration written by a model (the Director's `advance_time`, the Narrator's
// `time.advance`): ISO-8601 `P[nW][nD][T[nH][nM][nS]]`, or shorthand `15m`, `2h`, `1d`, `90s`, combined
// (`1h30m`) and spaced (`1 h 30 m`); letters in either case (`pt15m`, `1H`); surrounding space ignored.
// Years and months are refused: they have no fixed length. Whole seconds only.

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/** Characters of a duration as written. */
export const MAX_DURATION_CHARS = 64;

/** The formats, for messages. */
export const DURATION_FORMATS = "ISO-8601 like 'PT15M' or 'P1DT2H', or shorthand like '15m', '2h', '1d'";

const ISO_DURATION =
  /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i;
// Each optional part starts with a digit, so no two `\s*` runs can match the same spaces.
const SHORTHAND = /^(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m)?\s*(?:(\d+)\s*s)?$/i;

function part(text: string | undefined, unit: number): number {
  return text === undefined ? 0 : Number(text) * unit;
}

/**
 * A duration in whole seconds (0 allowed: `PT0S`), at most `maxSeconds`; `limitName` names that limit in
 * the message past it.
 */
export function parseDuration(input: unknown, maxSeconds: number, limitName: string): Parsed<number> {
  if (typeof input !== 'string')
    return { ok: false, message: `a duration must be a string (use ${DURATION_FORMATS})` };
  const text = input.trim();
  if (text.length > MAX_DURATION_CHARS) {
    return {
      ok: false,
      message: `duration is ${text.length} characters; the limit is ${MAX_DURATION_CHARS} (MAX_DURATION_CHARS)`,
    };
  }
  let seconds: number;
  const iso = ISO_DURATION.exec(text);
  if (iso && text.length > 1 && !/T$/i.test(text)) {
    if (iso[1] !== undefined || iso[2] !== undefined) {
      return {
        ok: false,
        message: `duration '${text}' uses years or months, which have no fixed length; use days or weeks (P30D)`,
      };
    }
    seconds =
      part(iso[3], 604_800) + part(iso[4], 86_400) + part(iso[5], 3600) + part(iso[6], 60) + part(iso[7], 1);
  } else {
    const short = text === '' ? null : SHORTHAND.exec(text);
    if (!short)
      return { ok: false, message: `duration '${text}' is not understood; use ${DURATION_FORMATS}` };
    seconds = part(short[1], 86_400) + part(short[2], 3600) + part(short[3], 60) + part(short[4], 1);
  }
  if (!Number.isSafeInteger(seconds) || seconds > maxSeconds) {
    return { ok: false, message: `duration '${text}' is longer than ${maxSeconds} seconds (${limitName})` };
  }
  return { ok: true, value: seconds };
}
