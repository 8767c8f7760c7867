// The session layer's limits at their value and just past it: the hydrated history window, the seed
// range, the cartridge cache size, the author-event name length.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedModels, type ScriptedModelSet } from '../../../src/adapters/llm/scripted.ts';
import { SessionError } from '../../../src/engine/session/errors.ts';
import { CartridgeLibrary } from '../../../src/engine/session/library.ts';
import {
  CARTRIDGE_CACHE_SIZE,
  MAX_DRAWN_SEED,
  MAX_EVENT_NAME_CHARS,
  TURN_HISTORY_WINDOW,
} from '../../../src/engine/session/limits.ts';
import { countingSeeds, freshSeed } from '../../../src/engine/session/seeds.ts';
import { SessionService } from '../../../src/engine/session/service.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import { fixture } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-session-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  n += 1;
  return openStore(join(dir, `l${n}.db`));
};

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof SessionError ? `${error.code}: ${error.message}` : String(error);
  }
}

describe('session limits', () => {
  it(`the history window: ${TURN_HISTORY_WINDOW} turns back reach the first message; one more turn drops it`, async () => {
    const store = await fresh();
    let last: ScriptedModelSet | undefined;
    const base = await fixture(store);
    const service = new SessionService({
      store,
      library: base.library,
      seeds: countingSeeds(1),
      turnLimits: { historyMessages: 200 },
      models: () => {
        last = createScriptedModels({ director: [{ text: 'Go on.' }], narrator: [{ text: 'Time passes.' }] });
        return last;
      },
    });
    const p = base.principal.id;
    const { session, turn: genesis } = await service.createSession(p, { cartridgeVersion: base.version.id });
    const opening = genesis.narration.slice(0, 60);
    const seen = () =>
      last!.narrator.requests
        .at(-1)!
        .messages.map((m) => m.content)
        .join('\n');
    // Parent at depth TURN_HISTORY_WINDOW - 1: the window (that many turns) still starts at turn 0.
    for (let i = 1; i < TURN_HISTORY_WINDOW; i++)
      await service.playTurn(p, session.id, { turn: { input: `msg-${i}` } });
    await service.playTurn(p, session.id, { turn: { input: `msg-${TURN_HISTORY_WINDOW}` } });
    expect(seen()).toContain(opening);
    expect(seen()).toContain('msg-1\n');
    await service.playTurn(p, session.id, { turn: { input: `msg-${TURN_HISTORY_WINDOW + 1}` } });
    expect(seen()).not.toContain(opening);
    expect(seen()).toContain('msg-1\n');
    await store.close();
  });

  it(`seeds up to MAX_DRAWN_SEED (${MAX_DRAWN_SEED}) are accepted; one more is refused`, async () => {
    const f = await fixture(await fresh());
    expect(
      await code(
        f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id, seed: MAX_DRAWN_SEED }),
      ),
    ).toBe('ok');
    expect(
      await code(
        f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id, seed: MAX_DRAWN_SEED + 1 }),
      ),
    ).toMatch(/^invalid: .*MAX_DRAWN_SEED/);
    // A fresh seed wraps within the range and never repeats one to avoid.
    expect(freshSeed(() => MAX_DRAWN_SEED, new Set([MAX_DRAWN_SEED]))).toBe(0);
    await f.store.close();
  });

  it(`the cartridge cache holds ${CARTRIDGE_CACHE_SIZE} loaded cartridges; one more evicts the oldest`, async () => {
    const f = await fixture(await fresh());
    const library = new CartridgeLibrary(f.store);
    const persona = (i: number) => ({
      name: `P${i}`,
      pronoun_sub: 'they',
      pronoun_obj: 'them',
      pronoun_poss: 'their',
      pronoun_poss_obj: 'theirs',
    });
    const zero = (await library.load(f.version.id, persona(0)))!.cartridge;
    for (let i = 1; i < CARTRIDGE_CACHE_SIZE; i++) await library.load(f.version.id, persona(i));
    expect(library.cachedCount).toBe(CARTRIDGE_CACHE_SIZE);
    const one = (await library.load(f.version.id, persona(1)))!.cartridge;
    expect((await library.load(f.version.id, persona(0)))!.cartridge).toBe(zero);
    // Now persona 2 is the least recently used: one more cartridge evicts it and keeps the others.
    await library.load(f.version.id, persona(CARTRIDGE_CACHE_SIZE));
    expect(library.cachedCount).toBe(CARTRIDGE_CACHE_SIZE);
    expect((await library.load(f.version.id, persona(1)))!.cartridge).toBe(one);
    expect((await library.load(f.version.id, persona(0)))!.cartridge).toBe(zero);
    const two = (await library.load(f.version.id, persona(2)))!.cartridge;
    expect(two.lore).toContain('P2');
    await f.store.close();
  });

  it(`author event names of ${MAX_EVENT_NAME_CHARS} characters are looked up; one more is refused as too long`, async () => {
    const f = await fixture(await fresh());
    const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
    const at = await code(
      f.service.runAuthorEvent(f.principal.id, session.id, { event: 'e'.repeat(MAX_EVENT_NAME_CHARS) }),
    );
    expect(at).toMatch(/^invalid: the cartridge has no event/);
    const over = await code(
      f.service.runAuthorEvent(f.principal.id, session.id, { event: 'e'.repeat(MAX_EVENT_NAME_CHARS + 1) }),
    );
    expect(over).toMatch(/^invalid: .*MAX_EVENT_NAME_CHARS/);
    await f.store.close();
  });
});
