// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// A turn past its compute budget over HTTP: the one turn-error mapping answers 422 `turn_budget_exceeded`
// naming the cartridge part (the cartridge's fault, never a 400 or a 500), and nothing is stored. A real
// server over loopback with a real SQLite store; the budget is the operator's turn limits (small here).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.ts';

const NAME = 'Costly Fen';
const ENTRIES = 10;
const KEYS = 4;
/** World Info's one scan pass: one step per entry and one per key (no key matches the input). */
const WI_STEPS = ENTRIES * (1 + KEYS);

function writeCartridge(dir: string): void {
  const entries: Record<string, unknown> = {};
  for (let uid = 0; uid < ENTRIES; uid++)
    entries[uid] = {
      uid,
      comment: `Entry ${uid}`,
      key: Array.from({ length: KEYS }, (_, k) => `nowhere${uid}x${k}`),
      content: `Fact ${uid}.`,
    };
  writeFileSync(join(dir, 'world_info.json'), JSON.stringify({ entries }));
  writeFileSync(join(dir, 'bot_lore.md'), '# Fen\n\nMist.\n');
  writeFileSync(
    join(dir, 'yare.yaml'),
    `version: "1.0"\nbot_name: "${NAME}"\nstate_schema:\n  n: { type: int, default: 0 }\nevents:\n  ponder:\n    description: Ponder.\n    steps:\n      - { action: note, message: "You wait." }\n`,
  );
}

async function serverWith(maxTurnSteps: number, dir: string): Promise<TestServer> {
  return startTestServer({ cartridgeDirs: [dir], turnLimits: { maxTurnSteps } });
}

describe('a turn past its budget over HTTP', () => {
  let root: string;
  let cartridgeDir: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'mnesos-turn-budget-'));
    cartridgeDir = join(root, 'costly-fen');
    mkdirSync(cartridgeDir);
    writeCartridge(cartridgeDir);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('at the limit the turn is stored; one step past it: 422 naming the entry, the session unchanged', async () => {
    // World Info, then `ponder`'s one step.
    const at = await serverWith(WI_STEPS + 1, cartridgeDir);
    try {
      const session = await at.json('/v1/sessions', { method: 'POST', json: { cartridge: NAME } });
      expect(session.status).toBe(201);
      const played = await at.json(`/v1/sessions/${session.body.session.id}/turns`, {
        method: 'POST',
        json: { input: '/ponder' },
      });
      expect(played.status).toBe(201);
    } finally {
      await at.stop();
    }

    const past = await serverWith(WI_STEPS - 1, cartridgeDir);
    try {
      const session = await past.json('/v1/sessions', { method: 'POST', json: { cartridge: NAME } });
      const id = session.body.session.id;
      const head = session.body.session.headTurnId;
      const refused = await past.json(`/v1/sessions/${id}/turns`, {
        method: 'POST',
        json: { input: '/ponder' },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('turn_budget_exceeded');
      expect(refused.body.error.part).toBe("World Info entry 'Entry 9' (uid 9)");
      expect(refused.body.error.message).toContain(
        `World Info entry 'Entry 9' (uid 9) exceeded the turn budget: ${WI_STEPS - 1} steps`,
      );
      // Nothing stored: the head is where it was, and the tree holds only the opening turn.
      const after = await past.json(`/v1/sessions/${id}`);
      expect(after.body.session.headTurnId).toBe(head);
      const tree = await past.store.listTree(id);
      expect(tree.map((t) => t.id)).toEqual([head]);

      // The stateless turn answers through the same mapping.
      const stateless = await past.json('/v1/turn', {
        method: 'POST',
        json: { cartridge: NAME, input: '/ponder' },
      });
      expect(stateless.status).toBe(422);
      expect(stateless.body.error.code).toBe('turn_budget_exceeded');
    } finally {
      await past.stop();
    }
  });
});
