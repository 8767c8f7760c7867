// Regular-expression keys (`/pattern/flags`) come from strangers' lorebooks and run against player text
// every turn, so a pattern that can backtrack catastrophically must never run. The policy:
//
// - the pattern is at most MAX_WI_REGEX_CHARS characters; flags are a subset of `gimsuy` (as in
//   SillyTavern); `g` and `y` are dropped (a key only asks "does it match");
// - refused: backreferences (`\1`, `\k<name>`), lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`), a quantifier on a
//   group that itself contains a quantifier or an alternation (`(a+)+`, `(a|aa)*`: nested quantifiers),
//   more than one unbounded quantifier (`*`, `+`, `{n,}`) in the whole pattern (`\w*\w*x` is polynomial),
//   and bounded repeats over MAX_BOUNDED_REPEAT;
// - the text it runs against is cut to its newest MAX_WI_REGEX_TEXT_CHARS characters.
// With one unbounded quantifier and no nesting, a match attempt is at worst quadratic in that bounded text.
// A refused pattern never matches (SillyTavern's rule for an invalid regex), and the import report and
// `mnesos lore` say why.

import { MAX_WI_REGEX_CHARS } from './world-info-limits.ts';

export const MAX_BOUNDED_REPEAT = 50;

export type RegexKey =
  | { readonly kind: 'regex'; readonly regex: RegExp }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'plain' };

/**
 * Parses a key as SillyTavern does (`parseRegexFromString`): `/…/flags` with flags from `gimsuy` and no
 * unescaped `/` inside; anything else is a plain key.
 */
export function parseRegexKey(key: string): RegexKey {
  const match = /^\/([\s\S]+)\/([gimsuy]*)$/.exec(key);
  if (match === null) return { kind: 'plain' };
  const body = match[1]!;
  // An unescaped slash inside makes it a plain key (SillyTavern's rule).
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === '/') return { kind: 'plain' };
  }
  const flags = [...new Set(match[2]!.replace(/[gy]/g, ''))].join('');
  if (body.length > MAX_WI_REGEX_CHARS) {
    return {
      kind: 'refused',
      reason: `the pattern is ${body.length} characters; the limit is ${MAX_WI_REGEX_CHARS} (MAX_WI_REGEX_CHARS)`,
    };
  }
  const unsafe = unsafeReason(body);
  if (unsafe !== undefined) return { kind: 'refused', reason: unsafe };
  try {
    return { kind: 'regex', regex: new RegExp(body, flags) };
  } catch (error) {
    return { kind: 'refused', reason: `not a valid regular expression: ${(error as Error).message}` };
  }
}

interface Group {
  hasQuantifier: boolean;
  hasAlternation: boolean;
}

/** Why the pattern could backtrack badly, or undefined when it is within the policy. */
export function unsafeReason(pattern: string): string | undefined {
  const stack: Group[] = [{ hasQuantifier: false, hasAlternation: false }];
  let unbounded = 0;
  let inClass = false;
  // What the last atom was, so a quantifier knows whether it applies to a group.
  let lastGroup: Group | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) return 'backreferences are not allowed';
      i++;
      lastGroup = undefined;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    switch (ch) {
      case '[':
        inClass = true;
        lastGroup = undefined;
        break;
      case '(': {
        if (
          pattern.startsWith('(?=', i) ||
          pattern.startsWith('(?!', i) ||
          pattern.startsWith('(?<=', i) ||
          pattern.startsWith('(?<!', i)
        )
          return 'lookahead and lookbehind are not allowed';
        stack.push({ hasQuantifier: false, hasAlternation: false });
        lastGroup = undefined;
        break;
      }
      case ')': {
        if (stack.length === 1) return 'unbalanced parenthesis';
        const closed = stack.pop()!;
        const parent = stack.at(-1)!;
        parent.hasQuantifier ||= closed.hasQuantifier;
        lastGroup = closed;
        break;
      }
      case '|':
        stack.at(-1)!.hasAlternation = true;
        lastGroup = undefined;
        break;
      case '*':
      case '+':
      case '?':
      case '{': {
        let isUnbounded = ch === '*' || ch === '+';
        let repeat = 1;
        if (ch === '{') {
          const brace = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
          if (brace === null) {
            lastGroup = undefined;
            break; // a literal brace
          }
          const low = Number(brace[1]);
          const high =
            brace[2] === undefined ? low : brace[3] === '' ? Number.POSITIVE_INFINITY : Number(brace[3]);
          if (high === Number.POSITIVE_INFINITY) isUnbounded = true;
          else repeat = high;
          if (low > MAX_BOUNDED_REPEAT || (Number.isFinite(high) && high > MAX_BOUNDED_REPEAT))
            return `a repeat count over ${MAX_BOUNDED_REPEAT} (MAX_BOUNDED_REPEAT) is not allowed`;
          i += brace[0].length - 1;
        }
        if (pattern[i + 1] === '?') i++; // lazy: same cost
        if (
          lastGroup !== undefined &&
          (repeat > 1 || isUnbounded) &&
          (lastGroup.hasQuantifier || lastGroup.hasAlternation)
        )
          return 'a quantifier on a group that contains a quantifier or an alternation (nested quantifiers) is not allowed';
        if (lastGroup !== undefined && ch === '?' && lastGroup.hasQuantifier && lastGroup.hasAlternation)
          return 'a quantifier on a group that contains a quantifier or an alternation (nested quantifiers) is not allowed';
        if (isUnbounded) unbounded++;
        if (unbounded > 1) return 'more than one unbounded quantifier (*, +, {n,}) is not allowed';
        stack.at(-1)!.hasQuantifier = true;
        lastGroup = undefined;
        break;
      }
      default:
        lastGroup = undefined;
    }
  }
  if (stack.length !== 1) return 'unbalanced parenthesis';
  return undefined;
}
