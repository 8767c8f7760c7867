// Where an offline turn's server CPU goes (the `breakdown` row of bench/server.ts), measured in this process
// on one session played turn after turn (no other turn runs meanwhile, so the CPU read around a store call
// is that call's): the whole `SessionService.playTurn`; the part spent inside store calls (SQLite, the rows'
// encoding); the turn engine alone (`runTurn` on the same cartridge, states, inputs and seeds, outside any
// session, with no story window: an offline turn reads the story only for World Info, which the demo has
// none of); the session layer is the rest of playTurn (admission, claim, caches, the record's
// serialisation, commit bookkeeping). With the HTTP row's CPU per turn, HTTP is what the server spends
// beyond playTurn (parsing, routing, validation, the answer's view and JSON, socket writes).

import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import type { Store } from '../src/adapters/store/repository.ts';
import { CartridgeLibrary } from '../src/engine/session/library.ts';
import { SessionService } from '../src/engine/session/service.ts';
import { runTurn } from '../src/engine/turn/run-turn.ts';
import type { GameState } from '../src/engine/turn/index.ts';

/** Turns measured for each figure (after as many of warm-up). */
export const BREAKDOWN_TURNS = 400;

const cpuMicros = (): number => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

/** The store with the CPU spent inside each of its calls added to `spent.micros`. */
function metered(store: Store, spent: { micros: number }): Store {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(store)) {
    out[name] =
      typeof value !== 'function'
        ? value
        : async (...args: unknown[]) => {
            const before = cpuMicros();
            try {
              return await (value as (...a: unknown[]) => Promise<unknown>).apply(store, args);
            } finally {
              spent.micros += cpuMicros() - before;
            }
          };
  }
  return out as unknown as Store;
}

export interface Breakdown {
  readonly playTurnMs: number;
  readonly storeMs: number;
  readonly engineMs: number;
  readonly sessionMs: number;
}

/** CPU ms a turn: playTurn, its store calls, the engine alone, and the session layer (the rest). */
export async function turnBreakdown(store: Store, inputs: readonly string[]): Promise<Breakdown> {
  const spent = { micros: 0 };
  const library = new CartridgeLibrary(metered(store, spent));
  const registered = await library.registerFolder(join(PROJECT_ROOT, 'cartridges', 'lanternmere'));
  if (!registered.ok) throw new Error('the demo cartridge does not load');
  const principal = await store.createPrincipal({ name: 'breakdown' });
  const service = new SessionService({ store: metered(store, spent), library, models: () => null });
  const { session } = await service.createSession(principal.id, { cartridgeVersion: registered.version.id });
  // The turns played, replayed by the engine alone afterwards: the same states, inputs and seeds.
  const played: Array<{ state: GameState; input: string; seed: number }> = [];
  let said = 0;
  let state = (await store.getTurn(session.id, session.headTurnId))?.state as GameState;
  const play = async (count: number, keep: boolean): Promise<number> => {
    const before = cpuMicros();
    for (let i = 0; i < count; i++) {
      const input = inputs[said++ % inputs.length]!;
      const { turn } = await service.playTurn(principal.id, session.id, { turn: { input } });
      if (keep) played.push({ state, input, seed: turn.seed });
      state = turn.state as GameState;
    }
    return cpuMicros() - before;
  };
  await play(BREAKDOWN_TURNS, false);
  spent.micros = 0;
  const playMicros = await play(BREAKDOWN_TURNS, true);
  const storeMicros = spent.micros;
  const { cartridge } = await service.cartridgeOf(session);
  const engine = async (): Promise<number> => {
    const before = cpuMicros();
    for (const turn of played)
      for await (const _ of runTurn({ cartridge, ...turn, messages: [], models: null })) {
        // Every event is consumed, as the session's pump does.
      }
    return cpuMicros() - before;
  };
  await engine();
  const engineMicros = await engine();
  const perTurn = (micros: number) => micros / 1000 / BREAKDOWN_TURNS;
  return {
    playTurnMs: perTurn(playMicros),
    storeMs: perTurn(storeMicros),
    engineMs: perTurn(engineMicros),
    sessionMs: perTurn(playMicros - storeMicros - engineMicros),
  };
}
