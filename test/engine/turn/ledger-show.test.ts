// `mnesos ledger show <session> [--turn N]`: the world of a stored session, replayed from the store's ledger
// rows. The session is stored the way the session layer stores one: genesis with the cartridge's starting
// world, then turns whose records come from `runTurn` with the world and ledger turn of their parent.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLedgerShow } from '../../../src/apps/cli/run/ledger-show.ts';
import { canonicalJson, worldFromJson } from '../../../src/core/ledger/index.ts';
import { CartridgeLibrary } from '../../../src/engine/session/library.ts';
import { SessionService } from '../../../src/engine/session/service.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import type { TurnRecord } from '../../../src/engine/turn/types.ts';
import { ROOT } from './helpers.ts';
import { MILL_YAML, millTurn, narrate } from './ledger-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'ledger-show-'));
const db = join(dir, 'mnesos.db');
let store: Store;
let sessionId = '';
let records: TurnRecord[] = [];

const TURN_1 = {
  events: [
    { event_type: 'create_entity', entity: 'tom', name: 'Tom Fletcher', entity_type: 'person' },
    { event_type: 'set_current_location', entity: 'tom', location: 'mill' },
    { event_type: 'add_fact', fact_id: 'tom_hides', subject: 'tom', predicate: 'hides from', object: 'duke' },
    { event_type: 'add_relationship', source: 'player', target: 'mara', relationship: 'allies' },
  ],
};
const TURN_2 = {
  events: [
    { event_type: 'invalidate_fact', fact_id: 'tom_hides', reason: 'He came out.' },
    { event_type: 'set_possession', item: 'lantern', owner: 'player' },
    { event_type: 'end_relationship', source: 'player', target: 'mara', relationship: 'allies' },
    { event_type: 'set_scene', location: 'woods', present: ['player'], summary: 'Alone in the woods.' },
  ],
};

function lines(): { out: string[]; push: (line: string) => void } {
  const out: string[] = [];
  return { out, push: (line) => out.push(line) };
}

beforeAll(async () => {
  store = await openStore(db);
  const library = new CartridgeLibrary(store);
  const registered = await library.register(
    new Map([
      ['yare.yaml', MILL_YAML],
      ['bot_lore.md', '# The Mill Road\nA road between a mill and a castle.\n'],
    ]),
    'mill-road',
  );
  if (!registered.ok) throw new Error(registered.errors.map((e) => e.message).join('\n'));
  await store.createPrincipal({ id: 'local-user', name: 'local user' });
  const service = new SessionService({ store, library, models: () => null });
  const created = await service.createSession('local-user', {
    cartridgeVersion: registered.version.id,
    seed: 1,
  });
  sessionId = created.session.id;
  let parentId = created.turn.id;
  let world = undefined as TurnRecord['ledger']['worldAfter'] | undefined;
  records = [];
  for (const [i, args] of [TURN_1, TURN_2].entries()) {
    const { record } = await millTurn([narrate(`Turn ${i + 1}.`, args)], {
      ledgerTurn: i + 1,
      ...(world === undefined ? {} : { world }),
    });
    expect(record.ledger.status).toBe('applied');
    const appended = await store.appendTurn({
      sessionId,
      parentId,
      input: record.input,
      narration: record.narration,
      record: { kind: 'turn', ...record },
      state: record.stateAfter,
      ledgerEvents: [...record.ledgerEvents],
      seed: record.seed,
      createdAt: i + 1,
    });
    if (!appended.ok) throw new Error(appended.reason);
    parentId = appended.turn.id;
    world = record.ledger.worldAfter;
    records.push(record);
  }
});

afterAll(async () => {
  await store.close();
});

describe('ledger show', () => {
  it("prints the world at the session's head: scene, entities, facts, relationships, threads", async () => {
    const { out, push } = lines();
    expect(await runLedgerShow(sessionId, { db }, push, {})).toBe(0);
    const text = out.join('\n');
    expect(out[0]).toMatch(new RegExp(`^Session ${sessionId}, turn 2 \\(`));
    expect(text).toContain('Scene (turn 2) at The Hollow Woods [woods]: "Alone in the woods."');
    expect(text).toContain('  present: Wren [player]');
    expect(text).toContain('Entities (9):');
    expect(text).toContain(
      '  - Wren [player] (person); at: The Old Mill [mill]; holds: Brass Lantern [lantern]',
    );
    expect(text).toContain('  - Brass Lantern [lantern] (item); held by: Wren [player]');
    expect(text).toContain('Facts (0 current, 1 withdrawn):');
    expect(text).toContain(
      '  - [tom_hides] Tom Fletcher [tom] "hides from" Duke Orsin [duke] (turn 1; withdrawn at turn 2: "He came out.")',
    );
    expect(text).toContain('  - Wren [player] "allies" Mara [mara] (turn 1 to turn 2)');
    expect(text).toContain('  - [missing_miller] "The missing miller" (open since turn 0)');
  });

  it('--turn N shows the world at depth N of the branch (0: the starting world)', async () => {
    const at1 = lines();
    expect(await runLedgerShow(sessionId, { db, turn: '1' }, at1.push, {})).toBe(0);
    const text = at1.out.join('\n');
    expect(text).toContain('Scene (turn 0) at The Old Mill [mill]: "Dusk at the old mill."');
    expect(text).toContain('Facts (1 current, 0 withdrawn):');
    expect(text).toContain('"allies" Mara [mara] (since turn 1)');
    const at0 = lines();
    expect(await runLedgerShow(sessionId, { db, turn: '0' }, at0.push, {})).toBe(0);
    expect(at0.out.join('\n')).toContain('Entities (8):');
  });

  it('--json prints the world as the turn engine recorded it (readable by worldFromJson)', async () => {
    const { out, push } = lines();
    expect(await runLedgerShow(sessionId, { db, turn: '1', json: true }, push, {})).toBe(0);
    expect(out).toHaveLength(1);
    const parsed = JSON.parse(out[0]!);
    expect(parsed).toMatchObject({ ok: true, session: sessionId, turn: { depth: 1 } });
    expect(worldFromJson(parsed.world).ok).toBe(true);
    // The replayed world is the world the turn recorded (stamps without the clock: the store's log keeps
    // turns, the record keeps the clock too), so compare what is not a stamp.
    const withoutClock = (w: unknown) =>
      JSON.stringify(JSON.parse(canonicalJson(w), (key, value) => (key === 'gameTime' ? undefined : value)));
    expect(withoutClock(parsed.world)).toBe(withoutClock(records[0]!.ledger.worldAfter));
  });

  it('reads the database from MNESOS_DATABASE_URL when --db is not given', async () => {
    const { out, push } = lines();
    expect(await runLedgerShow(sessionId, {}, push, { MNESOS_DATABASE_URL: `sqlite:${db}` })).toBe(0);
    expect(out[0]).toContain(`Session ${sessionId}, turn 2`);
  });

  it('explains an unknown session, a turn past the head, another owner and a missing database (exit 1)', async () => {
    const cases: Array<[string, Parameters<typeof runLedgerShow>[1], RegExp]> = [
      ['nope', { db }, /session nope not found for principal local-user/],
      [sessionId, { db, turn: '3' }, /--turn 3: the session's head is at depth 2/],
      [sessionId, { db, turn: 'no-such-turn' }, /--turn no-such-turn: turn no-such-turn not found/],
      [sessionId, { db, principal: 'someone-else' }, /not found for principal someone-else/],
      [sessionId, { db: join(dir, 'missing.db') }, /no database at .*missing\.db/],
      [sessionId, { db: 'mysql://localhost/x' }, /unsupported scheme 'mysql:'/],
    ];
    for (const [id, options, message] of cases) {
      const { out, push } = lines();
      expect(await runLedgerShow(id, options, push, {})).toBe(1);
      expect(out.join('\n')).toMatch(message);
      const json = lines();
      expect(await runLedgerShow(id, { ...options, json: true }, json.push, {})).toBe(1);
      expect(JSON.parse(json.out[0]!)).toMatchObject({ ok: false, error: expect.stringMatching(message) });
    }
  });

  it('a tampered ledger row is refused with the reason, not shown', async () => {
    const other = await openStore(`sqlite:${join(dir, 'tampered.db')}`);
    try {
      const library = new CartridgeLibrary(other);
      const registered = await library.register(
        new Map([
          ['yare.yaml', MILL_YAML],
          ['bot_lore.md', '# The Mill Road\nA road.\n'],
        ]),
        'mill-road',
      );
      if (!registered.ok) throw new Error('no cartridge');
      await other.createPrincipal({ id: 'local-user', name: 'local user' });
      const service = new SessionService({ store: other, library, models: () => null });
      const created = await service.createSession('local-user', {
        cartridgeVersion: registered.version.id,
        seed: 1,
      });
      const gold = { event_type: 'set_entity_attribute', entity: 'player', attribute: 'gold', value: 9999 };
      const appended = await other.appendTurn({
        sessionId: created.session.id,
        parentId: created.turn.id,
        narration: 'x',
        record: {},
        state: {},
        ledgerEvents: [gold],
        seed: 1,
        createdAt: 1,
      });
      expect(appended.ok).toBe(true);
      const { out, push } = lines();
      expect(await runLedgerShow(created.session.id, { db: join(dir, 'tampered.db') }, push, {})).toBe(1);
      expect(out[0]).toMatch(/does not replay at depth 1: LEDGER_RULES_OWNED/);
    } finally {
      await other.close();
    }
  });

  it('is a bin/mnesos command', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(
      join(ROOT, 'bin/mnesos'),
      ['ledger', 'show', sessionId, '--db', db, '--turn', '2', '--json'],
      {
        cwd: ROOT,
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, turn: { depth: 2 } });
    // Same world as the function prints.
    const { out, push } = lines();
    await runLedgerShow(sessionId, { db, turn: '2', json: true }, push, {});
    expect(canonicalJson(JSON.parse(stdout).world)).toBe(canonicalJson(JSON.parse(out[0]!).world));
  }, 30_000);
});
