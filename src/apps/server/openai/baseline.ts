// Offline play of a cartridge with no rules (an imported character card): look, talk and wait, narrated
// from the card's own text — its scenario and description for looking, its example dialogue for talking —
// so a card is playable through a chat front end before anyone writes rules for it. These answers spend no
// turn, like every offline answer that plays no rule (docs/sillytavern.md).

import type { Cartridge } from '../../../core/cartridge/index.ts';
import { comparable } from './transcript.ts';

export type BaselineAction = 'look' | 'talk' | 'wait';

/** Characters of card text one answer quotes. */
export const MAX_BASELINE_CHARS = 600;

const LOOK = /\b(look|looks|looking|around|examine|inspect|where|see|watch|search)\b/;
const WAIT = /\b(wait|waits|rest|rests|sleep|sleeps|pause|linger)\b/;
const TALK = /\b(say|says|said|ask|asks|tell|tells|talk|talks|speak|speaks|greet|greets|hello|hi|hey)\b|["?]/;

/** What a sentence asks for, when it is one of the baseline actions. */
export function baselineAction(text: string): BaselineAction | undefined {
  const words = comparable(text);
  if (TALK.test(words)) return 'talk';
  if (LOOK.test(words)) return 'look';
  if (WAIT.test(words)) return 'wait';
  return undefined;
}

/** The lore's `## Heading` sections, by lower-case heading; the text before the first is `''`. */
function sections(lore: string): Map<string, string> {
  const out = new Map<string, string>();
  let heading = '';
  let lines: string[] = [];
  const flush = (): void => {
    const text = lines.join('\n').trim();
    if (text !== '') out.set(heading, text);
  };
  for (const line of lore.split('\n')) {
    if (line.startsWith('## ')) {
      flush();
      heading = line.slice(3).trim().toLowerCase();
      lines = [];
    } else if (!line.startsWith('# ')) lines.push(line);
  }
  flush();
  return out;
}

function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_BASELINE_CHARS ? flat : `${flat.slice(0, MAX_BASELINE_CHARS - 1)}…`;
}

/** A stable choice among `items` for `key` (the same words pick the same line). */
function pick<T>(items: readonly T[], key: string): T | undefined {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) >>> 0;
  return items.length === 0 ? undefined : items[hash % items.length];
}

/** The character's lines of the example dialogue (`Name: …`), without the name. */
function characterLines(examples: string, name: string): string[] {
  const prefix = `${name.toLowerCase()}:`;
  return examples
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.toLowerCase().startsWith(prefix))
    .map((line) => line.slice(prefix.length).trim())
    .filter((line) => line !== '');
}

/** The answer to `text` for a cartridge with no rules, or undefined when it is none of look, talk, wait. */
export function baselineAnswer(cartridge: Cartridge, text: string): string | undefined {
  const action = baselineAction(text);
  if (action === undefined) return undefined;
  const parts = sections(cartridge.lore);
  const scene = parts.get('scenario') ?? parts.get('') ?? cartridge.firstMessage ?? '';
  switch (action) {
    case 'look':
      return scene === '' ? 'You look around. Nothing here calls for the rules.' : cut(scene);
    case 'talk': {
      const line = pick(
        characterLines(parts.get('example dialogue') ?? '', cartridge.name),
        comparable(text),
      );
      return line === undefined ? `${cartridge.name} listens to you.` : `${cartridge.name}: ${cut(line)}`;
    }
    case 'wait':
      return `Time passes. ${scene === '' ? '' : cut(scene)}`.trim();
    default: {
      const unreachable: never = action;
      return String(unreachable);
    }
  }
}

/** The offline answer to anything else, for a cartridge with no rules. */
export function baselineHelp(cartridge: Cartridge): string {
  return `Offline, ${cartridge.name} has no rules to play: you can look around, talk (say something in quotes) or wait.`;
}
