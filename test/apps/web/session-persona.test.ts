// The web client's server calls for personas and the rules under each turn, against a real server
// (SQLite, offline): a persona chosen for a running game is used from the next turn on, and the player
// view of a turn carries its public outcome and never a private field.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/apps/server/start.ts';
import { countingSeeds } from '../../../src/engine/session/seeds.ts';
import { ApiHttp } from '../../../src/apps/web/lib/http.ts';
import { LibraryApi } from '../../../src/apps/web/library/library-api.ts';
import { PersonasApi } from '../../../src/apps/web/personas/personas-api.ts';
import { PlayApi } from '../../../src/apps/web/play/play-api.ts';
import { ApiFailure } from '../../../src/apps/web/lib/errors.ts';

let dir: string;
let server: RunningServer;
let api: PlayApi;
let library: LibraryApi;
let personas: PersonasApi;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mnesos-persona-'));
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, 'db.sqlite'),
    models: () => null,
    seeds: countingSeeds(5),
  });
  const http = new ApiHttp(server.url, () => undefined);
  api = new PlayApi(http);
  library = new LibraryApi(http);
  personas = new PersonasApi(http);
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function play(sessionId: string, input: string) {
  const events = [];
  for await (const event of api.playTurn(sessionId, { input })) events.push(event);
  const committed = events.find((e) => e.event === 'committed');
  if (committed?.event !== 'committed') throw new Error(`no turn: ${JSON.stringify(events.at(-1))}`);
  return committed.data.turn;
}

describe('personas and the rules of a turn, through the web client’s API', () => {
  it('creates, edits and deletes personas; a game plays the chosen one from the next turn on', async () => {
    const mara = await personas.create({
      name: 'Mara Vell',
      pronoun_sub: 'she',
      pronoun_obj: 'her',
      pronoun_poss: 'her',
      pronoun_poss_obj: 'hers',
      background: 'A lamplighter.',
    });
    expect(
      (await personas.update(mara.id, { background: 'A lamplighter with a burnt sleeve.' })).background,
    ).toBe('A lamplighter with a burnt sleeve.');
    const { session } = await library.createSession({ cartridge: 'Lanternmere', title: 'Lanternmere' });
    expect((await play(session.id, '/cast_spell spell=mend')).narration).toBe(
      "Mend knits the player's wounds back to 24 HP.",
    );
    expect((await api.setSessionPersona(session.id, mara.id)).personaId).toBe(mara.id);
    expect((await play(session.id, '/cast_spell spell=mend')).narration).toBe(
      "Mend knits Mara Vell's wounds back to 24 HP.",
    );
    expect((await api.session(session.id)).title).toBe('Lanternmere');

    const missing = await api.setSessionPersona(session.id, 'no-such-persona').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiFailure);
    expect((missing as ApiFailure).status).toBe(404);

    await personas.remove(mara.id);
    expect(await personas.list()).toEqual([]);
    expect((await api.session(session.id)).personaId).toBeNull();
  });

  it('sends the dice and the public changes of each turn, never a private field', async () => {
    const { session } = await library.createSession({ cartridge: 'Lanternmere' });
    await play(session.id, 'go to the reedmaze');
    const turn = await play(session.id, 'explore');
    expect(turn.outcome?.rolls).toHaveLength(1);
    expect(turn.outcome?.rolls[0]).toMatchObject({ dice: '1d20', faces: [expect.any(Number)] });
    expect(turn.outcome?.time).toMatchObject({ seconds: 3600 });
    const paths = (turn.outcome?.changes ?? []).map((c) => c.path.join('.'));
    expect(paths.some((p) => /armor|attack_power|damage_dice|bestiary|world\.turn|_elapsed/.test(p))).toBe(
      false,
    );
    expect(JSON.stringify(turn.outcome)).not.toMatch(/armor|attack_power|damage_dice|attack_bonus/);
  });
});
