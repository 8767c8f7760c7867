// What the cartridge says each input value does (src/engine/turn/offline/option-deeds.ts): a value said with
// a verb its description gives it runs the event ("soothe the beast with the lullaby"), a question about it
// is answered from that description and spends nothing ("what does the lullaby do?"), another verb is no
// request, and the values read per event stop at MAX_OPTION_DEEDS. A small cartridge written here.
import { describe, expect, it } from 'vitest';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import type { Dict } from '../../../src/core/yare/index.ts';
import { chooseOffline } from '../../../src/engine/turn/offline/choose.ts';
import { MAX_OPTION_DEEDS, optionDeeds } from '../../../src/engine/turn/offline/option-deeds.ts';
import { directorTools } from '../../../src/engine/turn/tools.ts';
import { cartridgeFromFiles } from './helpers.ts';

function yare(tunes: readonly string[], described: string): string {
  return `state_schema:
  player:
    coins: { type: int, default: 5, min: 0, visibility: public }
events:
  play_tune:
    description: "The player plays a tune on the lute."
    inputs:
      tune:
        type: string
        enum: [${tunes.join(', ')}]
        description: "${described}"
    steps:
      - action: mutate
        var: state.player.coins
        op: sub
        value: 1
      - action: note
        message: "Player plays the {inputs.tune}."
`;
}

function load(text: string): Cartridge {
  return cartridgeFromFiles(
    { 'yare.yaml': text, 'bot_lore.md': '# The Hall\n\nA beast sleeps by the fire.\n' },
    'lute',
  );
}

const cartridge = load(
  yare(['lullaby', 'dirge', 'jig'], 'lullaby soothes the beast (1 coin), dirge frightens it (1 coin)'),
);

function choose(text: string, previous?: string) {
  return chooseOffline(cartridge.rules, directorTools(cartridge), text, {
    state: structuredClone(cartridge.rules.initialState) as Dict,
    lore: '',
    ...(previous === undefined ? {} : { previous }),
  });
}

describe('a value said with what the cartridge says it does', () => {
  it('runs the event with that value', () => {
    expect(choose('soothe the beast with the lullaby')).toMatchObject({
      kind: 'call',
      name: 'play_tune',
      args: { tune: 'lullaby' },
    });
    expect(choose('I frighten it with the dirge')).toMatchObject({
      kind: 'call',
      name: 'play_tune',
      args: { tune: 'dirge' },
    });
  });

  it("another verb, or another value's verb, is no request", () => {
    expect(choose('hum the lullaby')).not.toMatchObject({ kind: 'call' });
    expect(choose('frighten it with the lullaby')).not.toMatchObject({ kind: 'call' });
  });

  it('"frighten it again" repeats the value whose deed it names, not another', () => {
    expect(choose('frighten it again', 'frighten it with the dirge')).toMatchObject({
      kind: 'call',
      args: { tune: 'dirge' },
    });
    expect(choose('soothe it again', 'frighten it with the dirge')).not.toMatchObject({ kind: 'call' });
    expect(choose('frighten it', 'frighten it with the dirge')).not.toMatchObject({ kind: 'call' });
  });

  it('a question about a value is answered from its description, spending nothing', () => {
    for (const line of [
      'what does the lullaby do?',
      'does the lullaby soothe the beast?',
      'examine the dirge',
    ])
      expect(choose(line), line).toMatchObject({ kind: 'reply', reason: 'free', action: 'examine' });
    expect(choose('does the lullaby soothe the beast?')).toMatchObject({
      text: 'Lullaby soothes the beast (1 coin).',
    });
    expect(choose('examine the dirge')).toMatchObject({ text: 'Dirge frightens it (1 coin).' });
    // A question naming a value nothing describes is asked about, not told "nothing like … here".
    expect(choose('is the jig merry?')).toMatchObject({ kind: 'reply', reason: 'question' });
  });
});

describe('limits', () => {
  const tunes = (n: number) => Array.from({ length: n }, (_, i) => `tune${i}`);
  const said = (n: number) =>
    tunes(n)
      .map((t) => `${t} soothes`)
      .join(', ');

  it(`reads ${MAX_OPTION_DEEDS} values of an event, and no more`, () => {
    const atLimit = load(yare(tunes(MAX_OPTION_DEEDS), said(MAX_OPTION_DEEDS)));
    expect(optionDeeds(atLimit.rules.events.get('play_tune')!)).toHaveLength(MAX_OPTION_DEEDS);
    const past = load(yare(tunes(MAX_OPTION_DEEDS + 1), said(MAX_OPTION_DEEDS + 1)));
    const deeds = optionDeeds(past.rules.events.get('play_tune')!);
    expect(deeds).toHaveLength(MAX_OPTION_DEEDS);
    expect(deeds.at(-1)?.option).toEqual([`tune${MAX_OPTION_DEEDS - 1}`]);
  });
});
