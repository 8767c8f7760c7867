// Every regular expression that runs on text from a cartridge, a card, a player or an editor (lore, World
// Info, the injection check, the prompt sanitiser, the language server) is linear-time by structure (test/helpers/regex-linearity.ts).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INJECTION_PATTERNS } from '../../../src/core/cartridge/injection.ts';
import { TEMPLATE_TOKEN } from '../../../src/core/text-policy.ts';
import { linearityProblem, regexesIn } from '../../helpers/regex-linearity.ts';

const tsFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));

const FILES = [
  ...tsFiles('src/core/lore'),
  ...tsFiles('src/tools/authoring/lsp'),
  'src/engine/turn/world-info-turn.ts',
  'src/engine/turn/lore.ts',
  'src/core/cartridge/injection.ts',
  'src/core/text-policy.ts',
  'src/tools/interop/sillytavern/macros.ts',
  // A chat front end's messages: anchors, names, nudges (the OpenAI-compatible endpoint).
  'src/apps/server/openai/anchor.ts',
  'src/apps/server/openai/transcript.ts',
];

describe('the linearity rule', () => {
  it.each([
    ['a{0,50}a{0,50}b', 'i', undefined],
    ['^\\s*([A-Za-z_]+):\\s*$', '', undefined],
    ['\\s+', 'g', undefined],
    ['\\bmacros\\.([A-Za-z_][A-Za-z0-9_]*)', 'g', undefined],
    ['^(#{1,3})[ \\t]+(\\S.*?)(?:[ \\t]+#+)?[ \\t]*$', '', 'may also be what follows'],
    ['(a+)+$', '', 'nested'],
    ['a*b', '', 'unanchored'],
    ['\\s+$', '', 'unanchored'],
    ['^\\s*\\s*x', '', 'may also be what follows'],
    ['^a*b', 'm', 'unanchored'],
    ['(\\w)\\1', '', 'backreference'],
    ['(?=a+)b', '', 'lookaround'],
  ])('%s /%s → %s', (source, flags, problem) => {
    const found = linearityProblem(source, flags);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});

describe('every pattern in lore, World Info, the injection check and the language server', () => {
  const census = FILES.map(regexesIn);
  it.each(census.flatMap((c) => c.literals).map((r) => [`${r.file}:${r.line} /${r.source}/${r.flags}`, r]))(
    '%s is linear',
    (_name, r) => {
      expect(linearityProblem(r.source, r.flags)).toBeUndefined();
    },
  );

  it('patterns built at run time are only the injection rules and the special-token table (checked below)', () => {
    const built = census.flatMap((c) => c.constructed).map((place) => place.replace(/:\d+$/, ''));
    expect(new Set(built)).toEqual(new Set(['src/core/cartridge/injection.ts', 'src/core/text-policy.ts']));
  });

  it('the special-token pattern built from every family’s table is linear', () => {
    expect(linearityProblem(TEMPLATE_TOKEN.source, TEMPLATE_TOKEN.flags)).toBeUndefined();
  });

  it.each(INJECTION_PATTERNS.map((r) => [r.source.slice(0, 60), r]))(
    'injection rule %s is linear',
    (_n, r) => {
      expect(linearityProblem(r.source, r.flags)).toBeUndefined();
    },
  );
});
