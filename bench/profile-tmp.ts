import { join } from 'node:path';
import { loadCartridge } from '../src/cartridge/index.ts';
import { DiceRoller } from '../src/yare/dice.ts';
import { runEvent } from '../src/yare/interpreter.ts';
const r = await loadCartridge(join('/work/shared/cartridges', process.argv[2] ?? 'seed-eldoria'));
if (!r.ok) throw new Error();
const rules = r.cartridge.rules; const dice = DiceRoller.fromSeed(1); const st = rules.initialState;
const inputs = process.argv[2] ? { attacker: 'player', defender: 'npc', power: 0 } : { attacker: 'player' };
const t0 = performance.now(); let n = 0;
while (performance.now() - t0 < 3000) { for (let i = 0; i < 1000; i++) { dice.rolls.length = 0; runEvent(rules, st, 'combat_strike', inputs, { dice }); } n += 1000; }
console.log('runs/s', Math.round((n / (performance.now() - t0)) * 1000));
