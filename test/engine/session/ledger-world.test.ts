// The world ledger across stored turns: each turn starts from the world its parent left, so an entity
// created on turn 1 can be referenced on turn 2, branches keep their own worlds, and verify replays it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCartridge } from '../../../src/adapters/files/index.ts';
import { runLedgerCheck } from '../../../src/apps/cli/run/ledger-check.ts';
import { canonicalJson, startingWorld, toWire } from '../../../src/core/ledger/index.ts';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import { cartridgeLedger } from '../../../src/engine/session/ledger.ts';
import { CartridgeLibrary } from '../../../src/engine/session/library.ts';
import { countingSeeds } from '../../../src/engine/session/seeds.ts';
import { SessionService } from '../../../src/engine/session/service.ts';
import { verifySession } from '../../../src/engine/session/verify.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { initialWorld } from '../../../src/engine/turn/ledger/world.ts';
import { fixture } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-session-world-'));
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const DIRECTIVES = 'Factual outcomes: the player looks around.';

function narratorWith(events: unknown[]) {
  return { text: 'The mist parts.', toolCalls: [{ name: 'record_world_changes', args: { events } }] };
}

describe('world ledger through sessions', () => {
  it('turn 2 sees the entity turn 1 created; a sibling branch does not', async () => {
    const store = await openStore(join(dir, 'w.db'));
    stores.push(store);
    const script = createScriptedModels({
      director: [{ text: DIRECTIVES }, { text: DIRECTIVES }, { text: DIRECTIVES }],
      narrator: [
        narratorWith([
          { event_type: 'create_entity', entity: 'hesk', name: 'Mother Hesk', entity_type: 'person' },
        ]),
        narratorWith([{ event_type: 'set_entity_status', entity: 'hesk', status: 'wary' }]),
        // On a branch from turn 0, `hesk` was never created: the batch is rejected (and repaired twice).
        narratorWith([{ event_type: 'set_entity_status', entity: 'hesk', status: 'wary' }]),
        {
          toolCalls: [
            {
              name: 'record_world_changes',
              args: { events: [{ event_type: 'set_entity_status', entity: 'hesk', status: 'wary' }] },
            },
          ],
        },
        {
          toolCalls: [
            {
              name: 'record_world_changes',
              args: { events: [{ event_type: 'set_entity_status', entity: 'hesk', status: 'wary' }] },
            },
          ],
        },
      ],
      npc: [],
    });
    const f = await fixture(store, { models: () => script });
    const { session, turn: genesis } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
      seed: 1,
    });
    const first = await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'I look around' } });
    expect((first.turn.record as { ledger: { status: string } }).ledger.status).toBe('applied');
    const second = await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'I greet her' } });
    const ledger = (second.turn.record as { ledger: { status: string; turn: number } }).ledger;
    expect(ledger.status).toBe('applied');
    expect(ledger.turn).toBe(2);
    // The stored record keeps the batch, not the world; the world is read at the turn.
    expect('worldAfter' in ledger).toBe(false);
    const world = await f.service.worldAt(f.principal.id, session.id, second.turn.id);
    expect(world.result.ok && world.result.world.entities.hesk?.status).toBe('wary');

    const branch = await f.service.playTurn(f.principal.id, session.id, {
      parentId: genesis.id,
      turn: { input: 'I greet her' },
    });
    const branchLedger = (branch.turn.record as { ledger: { status: string; errors: { code: string }[] } })
      .ledger;
    expect(branchLedger.status).toBe('unledgered');
    expect(branchLedger.errors.map((e) => e.code)).toContain('LEDGER_UNKNOWN_REF');

    const verified = await verifySession(store, f.library, session.id);
    expect(verified?.ok).toBe(true);
  });
});

describe("a cartridge's starting world", () => {
  it('is one world: the genesis turn a session stores replays to what a new game and `ledger check` start from', async () => {
    const cart = mkdtempSync(join(dir, 'start-'));
    writeFileSync(
      join(cart, 'yare.yaml'),
      [
        'ledger:',
        '  world:',
        '    - { event_type: create_entity, entity: mara, name: Mara, entity_type: person }',
        '    - { event_type: create_entity, entity: lamp, name: Brass Lamp }',
        '    - { event_type: set_possession, item: lamp, owner: mara }',
        '    - { event_type: add_fact, subject: mara, predicate: keeps, object: lamp }',
        '',
      ].join('\n'),
    );
    writeFileSync(join(cart, 'bot_lore.md'), 'A quiet town.\n');
    const store = await openStore(join(dir, 'start.db'));
    stores.push(store);
    const library = new CartridgeLibrary(store);
    const registered = await library.registerFolder(cart);
    if (!registered.ok) throw new Error(registered.errors.map((e) => e.message).join('\n'));
    const service = new SessionService({ store, library, models: () => null, seeds: countingSeeds(1) });
    const principal = await store.createPrincipal({ name: 'player' });
    const { session, turn: genesis } = await service.createSession(principal.id, {
      cartridgeVersion: registered.version.id,
    });
    const stored = await service.worldAt(principal.id, session.id, genesis.id);
    if (!stored.result.ok) throw new Error('the genesis world does not replay');

    const loaded = await loadCartridge(cart);
    if (!loaded.ok) throw new Error('the cartridge does not load');
    const start = startingWorld(loaded.cartridge.ledger);
    expect(start.entities.lamp?.holder).toBe('mara');
    expect(canonicalJson(stored.result.world)).toBe(canonicalJson(start));
    expect(initialWorld(loaded.cartridge)).toBe(start);
    expect(canonicalJson(cartridgeLedger(loaded.cartridge).world)).toBe(
      canonicalJson(loaded.cartridge.ledger.world.map((event) => toWire(event))),
    );

    // `ledger check --cartridge` checks against that world: mara exists there, not in an empty world.
    const events = join(dir, 'status.json');
    writeFileSync(
      events,
      JSON.stringify([{ event_type: 'set_entity_status', entity: 'mara', status: 'awake' }]),
    );
    expect(await runLedgerCheck(events, { cartridge: cart }, () => undefined)).toBe(0);
    expect(await runLedgerCheck(events, {}, () => undefined)).toBe(1);
  });
});
