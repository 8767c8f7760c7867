// Alternate greetings chosen at game start: `alternate_greetings.json` in a cartridge (its limits at the value
// and past it, each error at its place), `greeting` on POST /v1/sessions over real HTTP (the chosen text is
// turn 0, an unknown one is refused naming the range), and the greetings going back out on export.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../../src/adapters/files/index.ts';
import {
  MAX_ALTERNATE_GREETINGS,
  MAX_ALTERNATE_GREETINGS_BYTES,
  MAX_FIRST_MESSAGE_BYTES,
} from '../../../../src/core/cartridge/limits.ts';
import { exportCard } from '../../../../src/tools/interop/sillytavern/export.ts';
import { importSillyTavern } from '../../../../src/tools/interop/sillytavern/import.ts';
import { openPlaySession } from '../../../../src/apps/cli/play/open-session.ts';
import { UserError } from '../../../../src/apps/cli/user-error.ts';
import { localPrincipal } from '../../../../src/apps/server/auth.ts';
import { CartridgeLibrary } from '../../../../src/engine/session/library.ts';
import { SessionService } from '../../../../src/engine/session/service.ts';
import { openStore } from '../../../../src/adapters/store/open.ts';
import { startTestServer, type TestServer } from '../../../apps/server/helpers.ts';

const BASE = new Map<string, string>([
  ['yare.yaml', 'version: 1\nbot_name: Greeter\n'],
  ['bot_lore.md', '# Greeter\n\nA host at an inn.\n'],
  ['first-message.md', 'Welcome to the inn, {{user}}.'],
]);

function load(greetings: string) {
  return loadCartridgeFromFiles(new Map([...BASE, ['alternate_greetings.json', greetings]]), 'greeter');
}
function errorsOf(greetings: string) {
  const result = load(greetings);
  if (result.ok) throw new Error('expected the cartridge to be refused');
  return result.errors;
}

describe('alternate_greetings.json', () => {
  it('loads the greetings with persona macros applied; absent, there are none', () => {
    const result = load('["Rain again, {{user}}?", "The fire is lit."]');
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.cartridge.alternateGreetings).toEqual(['Rain again, Player?', 'The fire is lit.']);
    const none = loadCartridgeFromFiles(BASE, 'greeter');
    expect(none.ok && none.cartridge.alternateGreetings).toEqual([]);
  });

  it(`${MAX_ALTERNATE_GREETINGS} greetings load; one more is refused`, () => {
    const list = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `hello ${i}`));
    expect(load(list(MAX_ALTERNATE_GREETINGS)).ok).toBe(true);
    const [error] = errorsOf(list(MAX_ALTERNATE_GREETINGS + 1));
    expect(error?.message).toMatch(/101 greetings; the limit is 100 \(MAX_ALTERNATE_GREETINGS\)/);
    expect(error?.place?.file).toMatch(/alternate_greetings\.json$/);
  });

  it(`a greeting of ${MAX_FIRST_MESSAGE_BYTES} bytes loads; one byte more is refused at its place`, () => {
    expect(load(JSON.stringify(['x'.repeat(MAX_FIRST_MESSAGE_BYTES)])).ok).toBe(true);
    const [error] = errorsOf(JSON.stringify(['ok', 'x'.repeat(MAX_FIRST_MESSAGE_BYTES + 1)], null, 2));
    expect(error?.message).toMatch(
      /greeting 2 is 16385 bytes; the limit is 16384 \(MAX_FIRST_MESSAGE_BYTES\)/,
    );
    expect(error?.place).toMatchObject({ line: 3, col: 3 });
  });

  it(`a file of ${MAX_ALTERNATE_GREETINGS_BYTES} bytes is read; one byte more is refused`, () => {
    const fill = (bytes: number) => {
      const items = Array.from({ length: 16 }, () => 'x'.repeat(16_000));
      const text = JSON.stringify(items);
      return `${text}${' '.repeat(bytes - text.length)}`;
    };
    expect(load(fill(MAX_ALTERNATE_GREETINGS_BYTES)).ok).toBe(true);
    const [error] = errorsOf(fill(MAX_ALTERNATE_GREETINGS_BYTES + 1));
    expect(error?.code).toBe('CART_FILE_TOO_LARGE');
  });

  it('refuses bad JSON, a non-array and empty or non-text greetings, naming the place', () => {
    expect(errorsOf('["a",')[0]?.place?.file).toMatch(/alternate_greetings\.json$/);
    expect(errorsOf('{"a": "b"}')[0]?.message).toMatch(/must be a JSON array of greeting texts/);
    const errors = errorsOf('[\n  "fine",\n  "",\n  3\n]');
    expect(errors.map((e) => [e.message, e.place?.line])).toEqual([
      ['greeting 2 must be non-empty text', 3],
      ['greeting 3 must be non-empty text', 4],
    ]);
  });

  it('export carries them back as alternate_greetings', () => {
    const texts = new Map([...BASE, ['alternate_greetings.json', '["Rain again?", "The fire is lit."]']]);
    const card = exportCard(texts, 'Greeter', 'v2') as { data: { alternate_greetings: string[] } };
    expect(card.data.alternate_greetings).toEqual(['Rain again?', 'The fire is lit.']);
  });
});

describe('choosing the greeting at game start (POST /v1/sessions)', () => {
  let server: TestServer;
  let folder: string;
  beforeAll(async () => {
    const card = {
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: {
        name: 'Hostess',
        description: '{{char}} runs the inn.',
        first_mes: 'The door creaks, {{user}}.',
        alternate_greetings: ['*{{char}} waves from the bar.*', 'Closed for the night!'],
      },
    };
    const imported = importSillyTavern(Buffer.from(JSON.stringify(card)), 'hostess.json');
    folder = mkdtempSync(join(tmpdir(), 'mnesos-greetings-'));
    for (const [name, content] of imported.files) writeFileSync(join(folder, name), content);
    server = await startTestServer({ cartridgeDirs: [folder] });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  const create = (json: Record<string, unknown>) =>
    server.json('/v1/sessions', { method: 'POST', json: { cartridge: 'Hostess', ...json } });

  it('starts with the first message by default, and with the chosen alternate greeting', async () => {
    const plain = await create({});
    expect(plain.status).toBe(201);
    expect(plain.body.turn.narration).toBe('The door creaks, Player.');
    const second = await create({ greeting: 1 });
    expect(second.status).toBe(201);
    expect(second.body.turn.narration).toBe('*Hostess waves from the bar.*');
    const third = await create({ greeting: 2 });
    expect(third.body.turn.narration).toBe('Closed for the night!');
  });

  it('mnesos play --greeting: a new game opens with it; one the cartridge lacks is a user error', async () => {
    const store = await openStore(join(folder, '..', `${folder.split('/').pop()}.db`));
    try {
      const library = new CartridgeLibrary(store);
      const service = new SessionService({ store, library, models: () => null });
      const principalId = (await localPrincipal(store)).id;
      const base = { store, library, service, principalId, cartridgeArg: folder, sessionName: undefined };
      const opened = await openPlaySession({ ...base, greeting: 2 });
      const genesis = await store.getTurn(opened.session.id, opened.session.headTurnId);
      expect(genesis?.narration).toBe('Closed for the night!');
      const refused = openPlaySession({ ...base, greeting: 3 });
      await expect(refused).rejects.toBeInstanceOf(UserError);
      await expect(refused).rejects.toThrow(/--greeting: greeting 3 does not exist/);
    } finally {
      await store.close();
      rmSync(join(folder, '..', `${folder.split('/').pop()}.db`), { force: true });
    }
  });

  it('refuses a greeting the cartridge does not have, naming the range', async () => {
    const missing = await create({ greeting: 3 });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body)).toMatch(/greeting 3 does not exist: .*0 \(first-message\.md\) to 2/);
    const negative = await create({ greeting: -1 });
    expect(negative.status).toBe(400);
    expect(JSON.stringify(negative.body)).toMatch(/greeting/);
  });
});
