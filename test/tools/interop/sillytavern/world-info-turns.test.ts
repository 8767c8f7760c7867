// World Info in real turns through the session service: entries reach the Narrator's prompt (before/after
// the character, @depth as messages), and sticky/cooldown are kept per branch: a sibling or another branch
// starts from its own parent's effects.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatModel, ModelRequest } from '../../../../src/adapters/llm/types.ts';
import { readWorldInfoState } from '../../../../src/core/lore/world-info-state.ts';
import { CartridgeLibrary } from '../../../../src/engine/session/library.ts';
import { countingSeeds } from '../../../../src/engine/session/seeds.ts';
import { SessionService } from '../../../../src/engine/session/service.ts';
import { verifySession } from '../../../../src/engine/session/verify.ts';
import { openStore } from '../../../../src/adapters/store/open.ts';
import type { Store } from '../../../../src/adapters/store/repository.ts';
import { textResponse } from './helpers.ts';

const WORLD = {
  entries: {
    '0': { uid: 0, key: ['ghost'], content: 'GHOST-LORE', sticky: 3, position: 0, comment: 'ghost' },
    '1': { uid: 1, key: ['bell'], content: 'BELL-LORE', cooldown: 4, position: 1, comment: 'bell' },
    '2': {
      uid: 2,
      key: ['/whisper(s|ed)?/i'],
      content: 'WHISPER-LORE',
      position: 4,
      depth: 1,
      role: 2,
      comment: 'whisper',
    },
  },
};

const requests: ModelRequest[] = [];
const narrator: ChatModel = {
  id: 'fake',
  async generate(req) {
    requests.push(req);
    return textResponse('ok');
  },
  async *stream(req) {
    requests.push(req);
    yield { type: 'text-delta', text: 'The night goes on.' };
    yield { type: 'finish', response: textResponse('The night goes on.') };
  },
};
const director: ChatModel = {
  id: 'fake',
  async generate() {
    return textResponse('Narrate.');
  },
  async *stream() {
    yield { type: 'finish', response: textResponse('Narrate.') };
  },
};

let dir: string;
let store: Store;
let service: SessionService;
let principalId: string;
let versionId: string;
let library: CartridgeLibrary;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mnesos-wi-turns-'));
  const cart = join(dir, 'cart');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(cart);
  writeFileSync(join(cart, 'yare.yaml'), 'version: 1\nbot_name: "Haunt"\n');
  writeFileSync(join(cart, 'bot_lore.md'), '# Haunt\n\nAn old house.\n');
  writeFileSync(join(cart, 'prompt_directives.yaml'), 'narrator: "CHARACTER-DEFINITIONS"\n');
  writeFileSync(join(cart, 'first-message.md'), 'The door creaks.');
  writeFileSync(join(cart, 'world_info.json'), JSON.stringify(WORLD));
  store = await openStore(join(dir, 'db.sqlite'));
  library = new CartridgeLibrary(store);
  const registered = await library.registerFolder(cart);
  if (!registered.ok) throw new Error(JSON.stringify(registered.errors));
  versionId = registered.version.id;
  service = new SessionService({
    store,
    library,
    models: () => ({ director, narrator, npc: director }),
    seeds: countingSeeds(1),
  });
  principalId = (await store.createPrincipal({ name: 'p' })).id;
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function play(sessionId: string, input: string, parentId?: string) {
  requests.length = 0;
  const { turn } = await service.playTurn(principalId, sessionId, {
    ...(parentId ? { parentId } : {}),
    turn: { input },
  });
  const last = requests.at(-1)!;
  return { turn, system: last.system, messages: last.messages };
}

describe('World Info in turns', () => {
  it('places entries before and after the character, and @depth entries as chat messages', async () => {
    const { session } = await service.createSession(principalId, { cartridgeVersion: versionId });
    const { system, messages } = await play(session.id, 'A ghost rings the bell and whispered.');
    const ghost = system.indexOf('GHOST-LORE');
    const character = system.indexOf('CHARACTER-DEFINITIONS');
    const bell = system.indexOf('BELL-LORE');
    expect(ghost).toBeGreaterThan(-1);
    expect(ghost).toBeLessThan(character);
    expect(bell).toBeGreaterThan(character);
    // depth 1, assistant role: one message before the player's message.
    expect(messages.at(-2)).toEqual({ role: 'assistant', content: 'WHISPER-LORE' });
    expect(messages.at(-1)?.role).toBe('user');
    expect(
      (messages.at(-1) as { content: string }).content.endsWith('A ghost rings the bell and whispered.'),
    ).toBe(true);
  });

  it('keeps sticky and cooldown per branch', async () => {
    const { session, turn: genesis } = await service.createSession(principalId, {
      cartridgeVersion: versionId,
    });
    const a1 = await play(session.id, 'I see a ghost and ring the bell.');
    expect(a1.system).toContain('GHOST-LORE');
    expect(a1.system).toContain('BELL-LORE');
    expect(readWorldInfoState(a1.turn.state as Record<string, unknown>)).toMatchObject({ messages: 2 });

    // Next turn on this branch: the ghost is sticky (3 messages), the bell is on cooldown (4).
    const a2 = await play(session.id, 'I ring the bell again.');
    expect(a2.system).toContain('GHOST-LORE');
    expect(a2.system).not.toContain('BELL-LORE');

    // A swipe of a2 (same parent) starts from a1's effects: the same outcome, not consumed twice.
    const swipe = await play(session.id, 'I ring the bell again.', a1.turn.id);
    expect(swipe.system).toContain('GHOST-LORE');
    expect(swipe.system).not.toContain('BELL-LORE');

    // Another branch from the first message never saw the ghost or the bell.
    const b1 = await play(session.id, 'I ring the bell.', genesis.id);
    expect(b1.system).not.toContain('GHOST-LORE');
    expect(b1.system).toContain('BELL-LORE');

    // Back on branch a: the sticky ended (message 6 ≥ 2 + 3), the cooldown still runs until message 6.
    const a3 = await play(session.id, 'Silence. Then the bell.', a2.turn.id);
    expect(a3.system).not.toContain('GHOST-LORE');
    expect(a3.system).toContain('BELL-LORE');
    const record = a3.turn.record as {
      prompts: { role: string; sections: { id: string; reason: string }[] }[];
    };
    const narratorPrompt = record.prompts.find((p) => p.role === 'narrator')!;
    expect(narratorPrompt.sections.map((s) => s.id)).toContain('world_info_after');
    expect((a3.turn.record as { worldInfo?: unknown }).worldInfo).toMatchObject({
      activated: [{ uid: 1, reason: 'key "bell"' }],
    });

    // The records replay to the stored states (World Info bookkeeping included) without any model.
    const report = await verifySession(store, library, session.id);
    expect(report?.divergences).toEqual([]);
    expect(report?.ok).toBe(true);
  });
});
