// The world ledger across stored turns: each turn starts from the world its parent left, so an entity
// created on turn 1 can be referenced on turn 2, branches keep their own worlds, and verify replays it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedModels } from '../../src/adapters/llm/scripted.ts';
import { verifySession } from '../../src/engine/session/verify.ts';
import { openStore } from '../../src/adapters/store/open.ts';
import type { Store } from '../../src/adapters/store/repository.ts';
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
