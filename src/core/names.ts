// The skeleton of a name a library lists (a cartridge's): two names whose skeletons are equal look the same
// in a list, so one library may not hold both. Names reach it in their one normal form (trimmed, NFKC, no
// invisible character: src/core/text-policy.ts, normaliseName).
//
// The skeleton's table is small on purpose, not Unicode's whole confusables list (UTS #39): the Cyrillic
// and Greek letters that look like Latin ones in common fonts, and the dotless i; full-width and other
// compatibility forms are already folded by NFKC; the joiners U+200C and U+200D (kept in names: some
// scripts need them) are dropped. Case is kept: `Lanternmere` and `lanternmere` are told apart.

/** Latin look-alikes: each key is drawn like its value in common fonts. */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  // Cyrillic, lower case
  а: 'a',
  в: 'b',
  е: 'e',
  һ: 'h',
  і: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ү: 'y',
  // Cyrillic, upper case
  А: 'A',
  В: 'B',
  Е: 'E',
  Н: 'H',
  І: 'I',
  Ј: 'J',
  К: 'K',
  М: 'M',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  Ү: 'Y',
  Ѕ: 'S',
  Ԁ: 'D',
  Ԛ: 'Q',
  Ԝ: 'W',
  // Greek, lower case
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  // Greek, upper case
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  // Latin
  ı: 'i',
};

/** What `name` looks like: equal skeletons are names a reader cannot tell apart. */
export function nameSkeleton(name: string): string {
  let out = '';
  for (const ch of name.normalize('NFKC')) {
    if (ch === '\u200C' || ch === '\u200D') continue;
    out += LOOK_ALIKES[ch] ?? ch;
  }
  return out;
}
