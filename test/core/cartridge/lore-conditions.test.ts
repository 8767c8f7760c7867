// `when:` conditions are checked at load like every expression: each problem at bot_lore.md:line:col (or
// world_info.json's place), with "did you mean"; a cartridge with a bad condition does not load.
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { formatDiagnostic } from '../../../src/core/diagnostics.ts';
import { conditionsFiles } from '../../engine/turn/lore-conditions-fixture.ts';

function errorsOf(overrides: Record<string, string>): string[] {
  const loaded = loadCartridgeFromFiles(conditionsFiles(overrides), 'chapel');
  if (loaded.ok) return [];
  return loaded.errors.map(formatDiagnostic);
}

const lore = (when: string) => `# Intro\nPlain text.\n\n# Bells\nwhen: ${when}\nThe bells ring.\n`;

describe('lore conditions at load', () => {
  it('loads the conditions of the fixture', () => {
    expect(errorsOf({})).toEqual([]);
  });

  it('names a misspelt state path at bot_lore.md:line:col with a did-you-mean', () => {
    expect(errorsOf({ 'bot_lore.md': lore('@ state.world.nigth') })).toEqual([
      'bot_lore.md:5:9: when: of section "Bells": state.world.nigth is not declared in state_schema. Did you mean `state.world.night`? [CART_BAD_CONDITION]',
    ]);
  });

  it('names a misspelt ledger function, with the column of the call', () => {
    const [error] = errorsOf({ 'bot_lore.md': lore("state.world.night and entiti('mara') != None") });
    expect(error).toMatch(/^bot_lore\.md:5:29: .*unknown function 'entiti'.*Did you mean `entity`\?/);
  });

  it('refuses dice, macros, other roots and a wrong arity', () => {
    expect(errorsOf({ 'bot_lore.md': lore('@ roll(1d6) > 3') })[0]).toMatch(
      /bot_lore\.md:5:9: .*cannot roll dice/,
    );
    expect(errorsOf({ 'bot_lore.md': lore('@ temp.x') })[0]).toMatch(
      /bot_lore\.md:5:9: .*Unknown name 'temp'\. Paths start with state\./,
    );
    expect(errorsOf({ 'bot_lore.md': lore('@ macros.x') })[0]).toMatch(/Unknown name 'macros'/);
    expect(errorsOf({ 'bot_lore.md': lore("@ entity('a', 'b')") })[0]).toMatch(
      /bot_lore\.md:5:9: .*entity\(\) takes 1 argument, got 2/,
    );
    expect(errorsOf({ 'bot_lore.md': lore('@ state.world.night ==') })[0]).toMatch(/^bot_lore\.md:5:/);
    expect(errorsOf({ 'bot_lore.md': lore('') })[0]).toMatch(/bot_lore\.md:5:7: .*the condition is empty/);
  });

  it('takes the first non-blank line under a heading only; a when: further down is text', () => {
    const text = '# Bells\nThe bells ring.\nwhen: @ nonsense here\n';
    expect(errorsOf({ 'bot_lore.md': text })).toEqual([]);
    const preamble = 'when: @ nonsense\n# Bells\nThe bells.\n';
    expect(errorsOf({ 'bot_lore.md': preamble })).toEqual([]);
  });

  it('reports every bad condition, not just the first', () => {
    const text = `${lore('@ state.nope')}\n# Two\nwhen: @ thread()\nx\n`;
    const errors = errorsOf({ 'bot_lore.md': text });
    expect(errors).toHaveLength(2);
    expect(errors[1]).toMatch(/^bot_lore\.md:9:9: .*thread\(\) takes 1 argument, got 0/);
  });

  it('checks World Info conditions at their place in world_info.json', () => {
    const wi = JSON.stringify(
      {
        entries: {
          '7': { uid: 7, key: ['x'], content: 'y', extensions: { mnesos: { when: '@ state.wrld.night' } } },
        },
      },
      null,
      2,
    );
    const [error] = errorsOf({ 'world_info.json': wi });
    expect(error).toMatch(
      /^world_info\.json:\d+:\d+: entries\.7\.extensions\.mnesos\.when: state\.wrld\.night is not declared.*Did you mean `state\.world\.night`\?/,
    );
    const line = Number(error!.split(':')[1]);
    expect(wi.split('\n')[line - 1]).toContain('"when"');
  });

  it('refuses a World Info condition that is not text', () => {
    const wi = JSON.stringify({
      entries: { '0': { uid: 0, key: ['x'], content: 'y', extensions: { mnesos: { when: 3 } } } },
    });
    expect(errorsOf({ 'world_info.json': wi })[0]).toMatch(
      /entries\.0\.extensions\.mnesos\.when: must be text/,
    );
  });
});
