// Ways of asking that name an action by another verb, read as that action before the words are weighed
// (choose.ts): "I'd like a room for the night" is getting a room, "take the ship to the teeth" is going
// there, "here, take the copper" is giving it. Fixed alternations anchored at the start: linear on any text.

/**
 * "I'd like a room", "can I get a drink", "I ask for some oil": asking for a thing is getting it (the verb
 * the events' words know), not liking or needing. Only before an article, so "I'd like to rest" keeps
 * its own verb.
 */
const ASKING_FOR =
  /^\s*(?:i(?:'d|’d| would)? like|i want|i need|can i (?:have|get)|could i (?:have|get)|may i have|give me|(?:i )?ask for)\s+(a|an|some|the|one)\s+/i;

/** "take the ship to …", "I take a boat for …", "we take the north road towards …": the way, then where. */
const TAKING_THE_WAY =
  /^\s*(?:(?:i|we)(?:'ll|’ll| will)?\s+)?take\s+(?:the|a|an|my|our)\s+[\p{L}'’-]+(?:\s+[\p{L}'’-]+)?\s+(?:to|for|towards?)\s+(\S[\s\S]*)$/iu;

/** "here, take the copper", "here you go, take this": offering a thing is giving it. */
const OFFERING = /^\s*here(?:,| you (?:go|are),?)?\s+take\s+/i;

/**
 * The line as the matcher weighs it: a request for a thing as "get …", an offer as "give …", and taking a
 * way (a ship, a road) to somewhere as "go to …" when `isPlace` says the words after "to" name a place one
 * can go to.
 */
export function asRequest(text: string, isPlace: (words: string) => boolean): string {
  const way = TAKING_THE_WAY.exec(text);
  if (way !== null && isPlace(way[1]!)) return `go to ${way[1]}`;
  if (OFFERING.test(text)) return text.replace(OFFERING, 'give ');
  return text.replace(ASKING_FOR, (_all, article: string) => `get ${article} `);
}

/**
 * "ask him about the password", "tell the keeper about the wreck": a conversation about something, which
 * the interactive-fiction parsers read as talk whatever the subject names (never the event it names).
 * "tell me about …" asks the game itself (examine, free.ts).
 */
const ASKS_ABOUT =
  /^\s*(?:(?:i|let me|let's)\s+)?(?:ask|tell|question)\s+(?!(?:me|us)\s)(?:[^\s.!?]+\s+){1,6}?about\s+\S/i;

export function asksAbout(text: string): boolean {
  return ASKS_ABOUT.test(text);
}
