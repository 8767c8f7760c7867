// The terminal game's /help: its commands, the public events of the cartridge with their inputs, and offline,
// the turns and free actions the offline matcher (engine/turn/offline/) understands without a model.

import type { Cartridge } from '../../../core/cartridge/index.ts';
import { publicEvents, toStateValue } from '../../../core/yare/index.ts';
import {
  ADVANCE_GAME_TIME,
  directorTools,
  freeActionHelp,
  offlineCommandSyntax,
} from '../../../engine/turn/index.ts';

const COMMAND_LINES = [
  'Type what your character does; the rules decide what happens.',
  '',
  'Game commands:',
  '  /state              the public game state',
  '  /debug              what the last turn did: notes, rolls, tool calls, prompts, tokens, timings',
  '  /event NAME k=v…    run one of the events below directly (recorded as a turn; /undo takes it back)',
  '  /undo               take back the last turn',
  '  /retry              play the last turn again with new dice (and a new answer from the model)',
  '  /save NAME          bookmark this moment (the same name again replaces it)',
  '  /load NAME          go back to a bookmark; playing on starts a new branch',
  '  /saves              list the bookmarks',
  '  /resolve status=completed|failed|aborted [k=v…]  finish a pending mini-game (k=v are metrics, data.k=v data)',
  '  /rules on|off       show or hide the dice and changes under each turn',
  '  /persona            your characters: /persona new NAME [she|he|they] [— description],',
  '                      /persona edit NAME field=value…, /persona use NAME, /persona delete NAME',
  '  /help               this list',
  '  /quit               leave (Ctrl-D too); every finished turn is already saved',
] as const;

/** The whole /help text, unwrapped. */
export function gameHelp(cartridge: Cartridge, offline: boolean): string {
  const lines = [...COMMAND_LINES, '', 'Events of this cartridge:', ...eventLines(cartridge)];
  if (offline) lines.push('', ...offlineLines(cartridge));
  return lines.join('\n');
}

/** Each public event with its inputs (an enum's values spelled out) and description. */
function eventLines(cartridge: Cartridge): string[] {
  return publicEvents(cartridge.rules).map((event) => {
    const inputs = [...event.inputs.values()]
      .map((s) =>
        s.enum ? `${s.name}=${s.enum.map((v) => JSON.stringify(toStateValue(v))).join('|')}` : `${s.name}=…`,
      )
      .join(' ');
    return `  ${event.name}${inputs === '' ? '' : ` ${inputs}`} — ${event.description}`;
  });
}

/** What offline play understands: events typed as turns, and the free actions every game answers. */
function offlineLines(cartridge: Cartridge): string[] {
  // Examples from this cartridge's own events (an imported card has none: the free actions remain).
  const examples = publicEvents(cartridge.rules)
    .filter((e) => e.triggerOn === undefined)
    .slice(0, 2)
    .map(offlineCommandSyntax);
  const clock = directorTools(cartridge).byName.has(ADVANCE_GAME_TIME) ? ['/wait 15m'] : [];
  const turns = [...examples, ...clock];
  return [
    ...(turns.length > 0 ? [`Offline, an event is also a turn: ${turns.join(', ')}.`] : []),
    'Every game also answers these without spending a turn:',
    ...freeActionHelp(false).map((line) => `  ${line}`),
    'Or describe what you do and your words are matched to the events.',
  ];
}
