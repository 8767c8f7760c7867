// A timeline that is always true: after any random sequence of turns, swipes, undos, branches, loads (moving
// the head to any turn), author edits, and closing and reopening the store, `session verify` replays every
// stored turn from the first (state, dice, World Info timed effects, the ledger) with no divergence, and the
// warm service's caches answer the same head state and world as a fresh service on the reopened file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createScriptedModels } from '../../../src/adapters/llm/index.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { allFacts, canonicalJson } from '../../../src/core/ledger/index.ts';
import { CartridgeLibrary } from '../../../src/engine/session/library.ts';
import { countingSeeds } from '../../../src/engine/session/seeds.ts';
import { SessionService } from '../../../src/engine/session/service.ts';
import { verifySession } from '../../../src/engine/session/verify.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { conditionsFiles } from '../turn/lore-conditions-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-timeline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A cartridge with World Info whose timed effects live in the state (a sticky, cooling entry on "linger"),
// lore conditions, and rules that change the state.
const WORLD_INFO = JSON.stringify({
  entries: {
    '0': { uid: 0, key: ['linger'], content: 'Lingering.', sticky: 2, cooldown: 1 },
    '1': { uid: 1, key: ['x'], content: 'Night.', extensions: { mnesos: { when: '@ state.world.night' } } },
  },
});
const cartridgeDir = join(dir, 'chapel');
mkdirSync(cartridgeDir);
for (const [name, text] of conditionsFiles({ 'world_info.json': WORLD_INFO }))
  writeFileSync(join(cartridgeDir, name), text);

type Op =
  | { kind: 'play'; input: string }
  | { kind: 'swipe' }
  | { kind: 'undo' }
  | { kind: 'branch'; at: number; input: string }
  | { kind: 'load'; at: number }
  | { kind: 'edit' }
  | { kind: 'reopen' };

const INPUTS = ['/linger', '/fall_night', '/linger'];
const input = fc.constantFrom(...INPUTS);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: input.map((i) => ({ kind: 'play' as const, input: i })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'swipe' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'undo' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('branch' as const), at: fc.nat(), input }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('load' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'edit' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reopen' as const }) },
);

let run = 0;
/** Head worlds seen holding facts with their knowers (the model path must record some). */
let factsWithKnowers = 0;

let told = 0;

/**
 * The model path: each turn a scripted Director runs a rule event and a scripted Narrator records world
 * changes — every other turn a new scene (who is present changes), every turn a fact learned by those present.
 */
function scriptedTurn(): ModelSet {
  told += 1;
  const present = told % 2 === 0 ? ['player', 'mara'] : ['player', 'bran'];
  return createScriptedModels({
    director: [{ text: 'Go on.', toolCalls: [{ name: 'linger', args: {} }] }],
    narrator: [
      {
        text: `Clue ${told}.`,
        toolCalls: [
          {
            name: 'record_world_changes',
            args: {
              events: [
                { event_type: 'set_scene', location: 'chapel', present },
                { event_type: 'add_fact', subject: present[1], predicate: `heard clue ${told}` },
              ],
            },
          },
        ],
      },
    ],
  });
}

function service(
  store: Store,
  models: () => ModelSet | null = () => null,
): { service: SessionService; library: CartridgeLibrary } {
  const library = new CartridgeLibrary(store);
  return {
    service: new SessionService({ store, library, models, seeds: countingSeeds(run * 1000) }),
    library,
  };
}

async function headView(svc: SessionService, principal: string, sessionId: string) {
  const session = await svc.getSession(principal, sessionId);
  const head = await svc.getTurn(principal, sessionId, session.headTurnId);
  const { result } = await svc.worldAt(principal, sessionId, session.headTurnId);
  if (result.ok && allFacts(result.world).some((f) => f.knownBy !== undefined)) factsWithKnowers += 1;
  // The world (not the replayed log, which is what a cache had to fold and differs by design).
  return canonicalJson({ head: head.id, state: head.state, world: result.ok ? result.world : result });
}

async function timelineHolds(ops: readonly Op[], models: () => ModelSet | null): Promise<void> {
  run += 1;
  const path = join(dir, `t${run}.db`);
  let store = await openStore(path);
  let { service: svc, library } = service(store, models);
  const registered = await library.registerFolder(cartridgeDir);
  if (!registered.ok) throw new Error(registered.errors.map((e) => e.message).join('\n'));
  const principal = (await store.createPrincipal({ name: 'p' })).id;
  const { session, turn: genesis } = await svc.createSession(principal, {
    cartridgeVersion: registered.version.id,
  });
  const turns: string[] = [genesis.id];
  try {
    for (const o of ops) {
      const current = await svc.getSession(principal, session.id);
      const head = current.headTurnId;
      switch (o.kind) {
        case 'play':
          turns.push((await svc.playTurn(principal, session.id, { turn: { input: o.input } })).turn.id);
          break;
        case 'swipe': {
          if (head === genesis.id) break;
          const prepared = await svc.prepareRegenerate(principal, session.id);
          if (prepared.kind === 'replayed') break;
          const running = prepared.run({});
          for (;;) {
            const next = await running.next();
            if (next.done) {
              turns.push(next.value.id);
              break;
            }
          }
          break;
        }
        case 'undo':
          if (head !== genesis.id) await svc.undo(principal, session.id);
          break;
        case 'branch': {
          const parentId = turns[o.at % turns.length]!;
          const played = await svc.playTurn(principal, session.id, {
            parentId,
            turn: { input: o.input },
          });
          turns.push(played.turn.id);
          break;
        }
        case 'load':
          await svc.moveHead(principal, session.id, turns[o.at % turns.length]!);
          break;
        case 'edit': {
          const edited = await svc.runAuthorEvent(principal, session.id, {
            event: 'fall_night',
            commit: true,
          });
          if (edited.turn) turns.push(edited.turn.id);
          break;
        }
        case 'reopen':
          await store.close();
          store = await openStore(path);
          ({ service: svc, library } = service(store, models));
          break;
      }
    }
    const warm = await headView(svc, principal, session.id);
    const report = await verifySession(store, library, session.id);
    expect(report?.divergences).toEqual([]);
    expect(report?.ok).toBe(true);
    await store.close();
    store = await openStore(path);
    const cold = service(store, models).service;
    expect(await headView(cold, principal, session.id)).toBe(warm);
  } finally {
    await store.close();
  }
}

describe('the timeline', () => {
  it('equals a replay of every branch after any sequence of turns, swipes, undos, branches, edits and reopens (offline)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), (ops) => timelineHolds(ops, () => null)),
      { numRuns: 12, seed: 27 },
    );
  }, 600_000);

  it('and on the model path, where every turn changes the scene and records facts with their knowers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), (ops) =>
        timelineHolds(ops, scriptedTurn),
      ),
      { numRuns: 10, seed: 28 },
    );
    expect(factsWithKnowers).toBeGreaterThan(0);
  }, 600_000);
});
