// What a line typed at the game's prompt asks for. The game's own slash commands are parsed here; any
// other line (free text, or a slash command such as `/travel destination="brine market"` that the offline
// matcher understands) is a turn for the engine.

import { MAX_LINE_CHARS, MAX_PLAY_NAME_CHARS } from './limits.ts';
import { type PersonaAction, parsePersonaCommand } from './personas.ts';
import { splitWords } from './words.ts';

/** `key=value` pairs and bare words of a command, quotes removed (`destination="brine market"`). */
export interface CommandArgs {
  readonly pairs: ReadonlyArray<readonly [string, string]>;
  readonly bare: readonly string[];
}

export type PlayCommand =
  | { readonly kind: 'empty' }
  | { readonly kind: 'say'; readonly text: string }
  | { readonly kind: 'state' }
  | { readonly kind: 'debug' }
  | { readonly kind: 'event'; readonly name: string; readonly args: CommandArgs }
  | { readonly kind: 'resolve'; readonly args: CommandArgs }
  | { readonly kind: 'undo' }
  | { readonly kind: 'retry' }
  | { readonly kind: 'save'; readonly name: string }
  | { readonly kind: 'load'; readonly name: string }
  | { readonly kind: 'saves' }
  | { readonly kind: 'help' }
  /** Show (true) or hide (false) the dice and changes under each turn; undefined: say which. */
  | { readonly kind: 'rules'; readonly show: boolean | undefined }
  | { readonly kind: 'persona'; readonly action: PersonaAction }
  | { readonly kind: 'quit' }
  | { readonly kind: 'invalid'; readonly message: string };

const SLASH = /^\/([A-Za-z_][A-Za-z0-9_-]*)(?:\s+([\s\S]*))?$/;
const KEY = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

export function parseArgs(text: string): CommandArgs | { error: string } {
  const words = splitWords(text);
  if (!Array.isArray(words)) return words;
  const pairs: (readonly [string, string])[] = [];
  const bare: string[] = [];
  for (const word of words) {
    const eq = word.indexOf('=');
    const key = eq > 0 ? word.slice(0, eq) : '';
    if (eq > 0 && KEY.test(key)) pairs.push([key, word.slice(eq + 1)]);
    else bare.push(word);
  }
  return { pairs, bare };
}

function checkName(command: string, rest: string): PlayCommand {
  const name = rest.trim();
  if (name === '') return { kind: 'invalid', message: `usage: /${command} NAME` };
  if (name.length > MAX_PLAY_NAME_CHARS) {
    return {
      kind: 'invalid',
      message: `a save name is at most ${MAX_PLAY_NAME_CHARS} characters (MAX_PLAY_NAME_CHARS); this one has ${name.length}`,
    };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    return { kind: 'invalid', message: 'a save name cannot contain control characters' };
  }
  return command === 'save' ? { kind: 'save', name } : { kind: 'load', name };
}

/** `/rules`, `/rules on`, `/rules off`. */
function parseRules(rest: string): PlayCommand {
  const word = rest.trim().toLowerCase();
  if (word === '') return { kind: 'rules', show: undefined };
  if (word === 'on' || word === 'off') return { kind: 'rules', show: word === 'on' };
  return { kind: 'invalid', message: 'usage: /rules on|off' };
}

function parsePersona(rest: string): PlayCommand {
  const action = parsePersonaCommand(rest);
  return 'error' in action ? { kind: 'invalid', message: action.error } : { kind: 'persona', action };
}

/** `/event NAME [key=value]…`: the first bare word names the event. */
function parseEvent(rest: string): PlayCommand {
  const args = parseArgs(rest);
  if ('error' in args) return { kind: 'invalid', message: `/event: ${args.error}` };
  const [event, ...bare] = args.bare;
  if (event === undefined) return { kind: 'invalid', message: 'usage: /event NAME [key=value]…' };
  return { kind: 'event', name: event, args: { pairs: args.pairs, bare } };
}

function parseResolve(rest: string): PlayCommand {
  const args = parseArgs(rest);
  if ('error' in args) return { kind: 'invalid', message: `/resolve: ${args.error}` };
  return { kind: 'resolve', args };
}

export function parseLine(line: string): PlayCommand {
  if (line.length > MAX_LINE_CHARS) {
    return {
      kind: 'invalid',
      message: `that line is ${line.length} characters, over the limit of ${MAX_LINE_CHARS} (MAX_LINE_CHARS)`,
    };
  }
  const text = line.trim();
  if (text === '') return { kind: 'empty' };
  const slash = SLASH.exec(text);
  if (slash === null) return { kind: 'say', text };
  const name = slash[1]!.toLowerCase();
  const rest = slash[2] ?? '';
  switch (name) {
    case 'state':
      return { kind: 'state' };
    case 'debug':
      return { kind: 'debug' };
    case 'undo':
      return { kind: 'undo' };
    case 'retry':
      return { kind: 'retry' };
    case 'saves':
      return { kind: 'saves' };
    case 'help':
      return { kind: 'help' };
    case 'rules':
      return parseRules(rest);
    case 'persona':
      return parsePersona(rest);
    case 'quit':
    case 'exit':
      return { kind: 'quit' };
    case 'save':
    case 'load':
      return checkName(name, rest);
    case 'event':
      return parseEvent(rest);
    case 'resolve':
      return parseResolve(rest);
    default:
      // Not one of the game's commands: the turn engine's (offline `/travel …`, `/wait 15m`, …).
      return { kind: 'say', text };
  }
}
