// A deed the rules have no event for, done to what one costly event is about (src/engine/turn/offline/
// attempt.ts): "kick the door" where the only event about the door picks its lock is answered — nothing
// comes of it, what is known of the door, what the rules let the player do with it — without a turn or a
// question; where the event's notes say the deed does it, the event runs. A cartridge written here.
import { describe, expect, it } from 'vitest';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import type { Dict } from '../../../src/core/yare/index.ts';
import { chooseOffline } from '../../../src/engine/turn/offline/choose.ts';
import { directorTools } from '../../../src/engine/turn/tools.ts';
import { cartridgeFromFiles } from './helpers.ts';

function yare(note: string): string {
  return `state_schema:
  player:
    picks: { type: int, default: 3, min: 0, visibility: public }
events:
  pick_door_lock:
    description: "Pick the lock of the cellar door."
    intents: ["pick the lock"]
    steps:
      - action: mutate
        var: state.player.picks
        op: sub
        value: 1
      - action: note
        message: "${note}"
`;
}

const LORE =
  '# The Cellar\n\nStone steps go down.\n\n## The cellar door\n\nOak, banded with iron, and locked.\n';

function load(note: string): Cartridge {
  return cartridgeFromFiles({ 'yare.yaml': yare(note), 'bot_lore.md': LORE }, 'cellar');
}

function chooser(cartridge: Cartridge) {
  return (text: string) =>
    chooseOffline(cartridge.rules, directorTools(cartridge), text, {
      state: structuredClone(cartridge.rules.initialState) as Dict,
      lore: cartridge.lore,
    });
}

describe('a deed no event does', () => {
  const choose = chooser(load('The player works the pins of the lock.'));

  it('is answered without a turn: nothing comes of it, the thing, and what can be done with it', () => {
    const kicked = choose('kick the cellar door');
    expect(kicked).toMatchObject({ kind: 'reply', reason: 'free', action: 'try' });
    expect((kicked as { text: string }).text).toBe(
      'Nothing comes of that. Cellar door: Oak, banded with iron, and locked. ' +
        '(What the rules let you do with it: pick door lock — say “pick the lock”, or type /pick_door_lock.)',
    );
  });

  it("the event's own verb still runs it; words with no verb of their own are asked about", () => {
    expect(choose('pick the lock of the door')).toMatchObject({ kind: 'call', name: 'pick_door_lock' });
    expect(choose('the cellar door')).toMatchObject({ kind: 'reply', reason: 'question' });
  });
});

describe('a deed the notes say the event does', () => {
  it('runs the event ("Player kicks the door open" answers "kick the cellar door")', () => {
    const choose = chooser(load('The player kicks the door open.'));
    expect(choose('kick the cellar door')).toMatchObject({ kind: 'call', name: 'pick_door_lock' });
  });
});
