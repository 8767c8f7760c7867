// Card macros at import: `{{char}}`, `<BOT>`, `<CHAR>` become the character's name (the V3 `nickname` when
// set, as the spec says); `<USER>` becomes `{{user}}`, which the cartridge loader replaces with the
// player's persona; `{{// comments}}` are removed. Every other macro stays as written and is counted in the
// loss report by name. The result goes through the one prompt sanitiser (src/core/text-policy.ts). The patterns are linear: a bounded negated class between fixed delimiters.

import { sanitizeForPrompt } from '../../../core/text-policy.ts';
import type { LossReport } from './loss.ts';

/** Macros the cartridge loader itself replaces (docs/cartridges.md, persona macros). */
const PERSONA_MACROS = new Set(['user', 'sub', 'obj', 'poss', 'poss_obj']);
const MACRO = /\{\{([^{}]{0,200})\}\}/g;
const LEGACY = /<(user|bot|char)>/gi;

/** Control characters a cartridge file may not hold (tab, line feed and carriage return are fine). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function resolveCardMacros(text: string, charName: string, loss: LossReport, place: string): string {
  const controls = text.match(CONTROL)?.length ?? 0;
  if (controls > 0) {
    loss.add('control characters', place, 'removed: cartridge files may not hold them', controls);
    text = text.replace(CONTROL, '');
  }
  const legacy = text.replace(LEGACY, (_m, who: string) =>
    who.toLowerCase() === 'user' ? '{{user}}' : charName,
  );
  const resolved = legacy.replace(MACRO, (whole, inner: string) => {
    const body = inner.trim();
    if (body.startsWith('//')) return '';
    const name = body.split(/[:\s]/)[0]!.toLowerCase();
    if (name === 'char') return charName;
    if (PERSONA_MACROS.has(name) && body.toLowerCase() === name) return `{{${name}}}`;
    loss.add(`macro {{${name}}}`, place, 'not a macro here: left as written');
    return whole;
  });
  // Card text ends up in prompts (directives, lore, World Info): through the one prompt sanitiser, once here.
  const neutral = sanitizeForPrompt(resolved);
  if (neutral !== resolved)
    loss.add('prompt tokens', place, 'chat-template tokens escaped and invisible characters removed');
  return neutral;
}
