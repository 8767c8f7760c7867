import { loadCartridge } from '../src/adapters/files/index.ts';
import { runEvent } from '../src/core/yare/index.ts';
import { diffStates, DiceRoller, EventRunner } from '../src/core/yare/index.ts';
import { narrateOffline } from '../src/engine/turn/offline/narration.ts';
const [dir, event, statePatch] = process.argv.slice(2);
const c = (await loadCartridge(dir!)) as any;
const rules = c.cartridge.rules;
const state = structuredClone(rules.initialState);
Object.assign(state.player, JSON.parse(statePatch ?? '{}'));
const r = new EventRunner(rules, state, DiceRoller.fromSeed(1), 5000).run(event!, {});
if (!r.ok) { console.log(r); process.exit(1); }
console.log(narrateOffline(rules, { notes: r.notes, changes: diffStates(state, r.state), seed: 1 }));
