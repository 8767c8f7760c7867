// The chat's opening message. A front end shows the character's greeting first (SillyTavern: the card's
// `first_mes`, or one of its alternate greetings as swipes of the first message), with its persona's name
// where the game wrote its own ("Player"). It is not anchored (the front end wrote it, not the endpoint), so it
// is recognised by its words: as the opening of the game's story (a chat that still starts there), and, when
// it is not the game's own, told to the Narrator as the greeting the player sees.

import {
  type Cartridge,
  DEFAULT_PERSONA,
  type Persona,
  STORY_PLAYER,
} from '../../../core/cartridge/index.ts';
import { comparable } from './transcript.ts';

/** Characters another name may have where the game wrote its player's name. */
const MAX_OTHER_NAME_CHARS = 40;

/**
 * Whether the chat's greeting is the game's, allowing for the player's name: SillyTavern writes its
 * persona's name where the game wrote its own ("Player"), so words that differ only there still agree.
 */
export function sameGreeting(chat: string, game: string, gameName: string | undefined): boolean {
  const a = comparable(chat);
  const b = comparable(game);
  if (a === b) return true;
  if (gameName === undefined || gameName.trim() === '') return false;
  const name = comparable(gameName);
  const index = b.indexOf(name);
  if (index < 0) return false;
  // Each occurrence of the game's name in its greeting may be one other name of up to three words.
  const parts = b.split(name);
  let at = 0;
  for (const [i, part] of parts.entries()) {
    if (!a.startsWith(part, at)) return false;
    at += part.length;
    if (i === parts.length - 1) return at === a.length;
    const nextPart = parts[i + 1]!;
    const end = nextPart === '' ? a.length : a.indexOf(nextPart, at);
    if (end < 0) return false;
    const other = a.slice(at, end);
    if (other === '' || other.length > MAX_OTHER_NAME_CHARS || other.split(' ').length > 3) return false;
    at = end;
  }
  return false;
}

/** Whether `chat` is `game` for this persona (or for "Player", in a game opened before the opening spoke of the player). */
function samePlayerGreeting(chat: string, game: string, persona: Persona | undefined): boolean {
  return (
    sameGreeting(chat, game, persona?.name ?? STORY_PLAYER) ||
    (persona === undefined && sameGreeting(chat, game, DEFAULT_PERSONA.name))
  );
}

/** Whether the chat's first message is one of the cartridge's greetings (the chat starts at the game's start). */
export function isOpening(chat: string, cartridge: Cartridge, persona: Persona | undefined): boolean {
  if (chat.trim() === '') return false;
  const greetings = [cartridge.firstMessage ?? '', ...cartridge.alternateGreetings];
  return greetings.some((g) => g.trim() !== '' && samePlayerGreeting(chat, g, persona));
}

/** What the Narrator is told when the chat opened with another greeting than the game's own ('' when the same). */
export function greetingContext(chat: string, game: string, persona: Persona | undefined): string {
  if (chat.trim() === '' || samePlayerGreeting(chat, game, persona)) return '';
  return `The player's chat opened with this greeting (instead of the game's own):\n${chat.trim()}`;
}
