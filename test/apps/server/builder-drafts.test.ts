// The builder's routes over real HTTP (SQLite, two API keys): drafts scoped to their owner, the checker's
// findings at file:line:col, completion, "try it", save as version through the upload path (and a game
// started on it), the zip download loaded back by the upload reader and the loader, the generator's
// result saved as a draft, and the bounds of every body.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { MAX_YARE_BYTES } from '../../../src/core/cartridge/limits.ts';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import { readArchive } from '../../../src/adapters/files/archive/index.ts';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { FIRST_ANSWER, FIXED_YARE, REPAIR_ANSWER } from '../../tools/authoring/builder/drafts.ts';
import { KEY_A, KEY_B, LANTERNMERE_DIR, readSse, startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
const lanternmere = (file: string) => readFileSync(join(LANTERNMERE_DIR, file), 'utf8');

const POND_YARE = `version: "1.0"
bot_name: "Pond Test"
state_schema:
  player:
    visibility: public
    hp: { type: int, default: 10, min: 0, max: 10 }
    wet: { type: bool, default: false }
macros:
  swim_roll: "@ roll(1d20)"
events:
  swim:
    description: "Swim across."
    inputs:
      style: { type: string, enum: ["crawl", "paddle"], default: "crawl" }
    steps:
      - action: set
        var: temp.r
        value: "@ macros.swim_roll"
      - action: mutate
        var: state.player.hp
        op: sub
        value: 1
      - action: set
        var: state.player.wet
        value: true
      - action: note
        message: "[SYSTEM LOG: rolled {temp.r} swimming by {inputs.style}.]"
`;
const POND = {
  'yare.yaml': POND_YARE,
  'bot_lore.md': '# Pond\n\nA cold pond.\n',
  'first-message.md': 'The pond is still.\n',
};

beforeAll(async () => {
  const models = createScriptedModels({
    director: [
      { text: FIRST_ANSWER },
      { text: REPAIR_ANSWER },
      { text: FIRST_ANSWER },
      { text: REPAIR_ANSWER },
    ],
  });
  server = await startTestServer({
    apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B}`),
    models: () => models,
    modelMode: 'online',
  });
});
afterAll(async () => {
  await server?.stop();
});

const post = (path: string, json: unknown, key = KEY_A) => server.json(path, { method: 'POST', json, key });

describe('drafts', () => {
  it('are created from the empty template, saved, listed and deleted by their owner only', async () => {
    const created = await post('/v1/builder/drafts', { name: 'My pond' });
    expect(created.status).toBe(201);
    const draft = created.body.draft;
    expect(Object.keys(draft.files)).toEqual(
      expect.arrayContaining(['yare.yaml', 'bot_lore.md', 'prompt_directives.yaml', 'first-message.md']),
    );
    const id = draft.id;
    // The empty template passes the checker as it is.
    expect((await post('/v1/builder/check', { files: draft.files })).body.ok).toBe(true);

    const saved = await server.json(`/v1/builder/drafts/${id}`, {
      method: 'PUT',
      json: { files: POND },
      key: KEY_A,
    });
    expect(saved.status).toBe(200);
    expect((await server.json(`/v1/builder/drafts/${id}`, { key: KEY_A })).body.draft.files).toEqual(POND);

    // Another key sees nothing of it: 404 on every route, and an empty list.
    for (const [method, path] of [
      ['GET', `/v1/builder/drafts/${id}`],
      ['PUT', `/v1/builder/drafts/${id}`],
      ['DELETE', `/v1/builder/drafts/${id}`],
      ['POST', `/v1/builder/drafts/${id}/versions`],
      ['GET', `/v1/builder/drafts/${id}/archive`],
    ] as const) {
      const r = await server.json(path, {
        method,
        key: KEY_B,
        ...(method === 'PUT' ? { json: { name: 'mine now' } } : {}),
      });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await server.json('/v1/builder/drafts', { key: KEY_B })).body.drafts).toEqual([]);
    expect(
      (await server.json('/v1/builder/drafts', { key: KEY_A })).body.drafts.map((d: { id: string }) => d.id),
    ).toContain(id);

    expect((await server.call(`/v1/builder/drafts/${id}`, { method: 'DELETE', key: KEY_A })).status).toBe(
      204,
    );
    expect((await server.json(`/v1/builder/drafts/${id}`, { key: KEY_A })).status).toBe(404);
  });

  it('start from a mnesos-new template, from files, or from a version of the caller’s own only', async () => {
    const minimal = await post('/v1/builder/drafts', { name: 'from minimal', template: 'minimal' });
    expect(minimal.status).toBe(201);
    // The template's rules, named as the draft (a draft starts as a cartridge of its own).
    expect(minimal.body.draft.files['yare.yaml']).toContain('bot_name: "from minimal"');
    expect(minimal.body.draft.files['yare.yaml']).not.toContain('Gullrock Light');
    expect(minimal.body.draft.files['bot_lore.md']).toContain('Gullrock');
    expect((await post('/v1/builder/drafts', { name: 'x', template: 'nope' })).status).toBe(404);
    expect((await post('/v1/builder/drafts', { name: 'x', template: 'minimal', files: POND })).status).toBe(
      400,
    );

    const fromFiles = await post('/v1/builder/drafts', { name: 'pond', files: POND });
    const version = await post(`/v1/builder/drafts/${fromFiles.body.draft.id}/versions`, undefined);
    expect(version.status).toBe(201);
    const copy = await post('/v1/builder/drafts', { name: 'copy', fromVersion: version.body.version.id });
    expect(copy.status).toBe(201);
    expect(copy.body.draft.files).toEqual(POND);
    // Bob may not copy Alice's rules out of her version.
    expect(
      (await post('/v1/builder/drafts', { name: 'copy', fromVersion: version.body.version.id }, KEY_B))
        .status,
    ).toBe(404);
  });

  it('refuse unknown file names and files over their limit (at the limit accepted)', async () => {
    expect((await post('/v1/builder/drafts', { name: 'x', files: { 'notes.txt': 'hi' } })).status).toBe(400);
    const atLimit = await post('/v1/builder/check', { files: { 'yare.yaml': 'x'.repeat(MAX_YARE_BYTES) } });
    // At the limit the body is taken and checked (it is no rules file, so the checker says why).
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.ok).toBe(false);
    const past = await post('/v1/builder/check', { files: { 'yare.yaml': 'x'.repeat(MAX_YARE_BYTES + 1) } });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body.error)).toContain('yare.yaml');
  });
});

describe('check', () => {
  it('reports the checker’s errors at file:line:col, and ok once fixed', async () => {
    const broken = POND_YARE.replace('var: state.player.hp', 'var: state.player.hpp');
    const line = broken.split('\n').findIndex((l) => l.includes('state.player.hpp')) + 1;
    const r = await post('/v1/builder/check', { files: { ...POND, 'yare.yaml': broken } });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(false);
    expect(r.body.errors.map((e: { where: string; code: string }) => `${e.where} ${e.code}`)).toEqual([
      `yare.yaml:${line}:14 YARE_UNKNOWN_PATH`,
    ]);
    const fixed = await post('/v1/builder/check', { files: POND });
    expect(fixed.body).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it('saves and checks in one request with PUT ?check=true (the saved files are what is checked)', async () => {
    const draft = (await post('/v1/builder/drafts', { name: 'sync' })).body.draft;
    const broken = { ...POND, 'yare.yaml': POND_YARE.replace('op: sub', 'op: minus') };
    const r = await server.json(`/v1/builder/drafts/${draft.id}?check=true`, {
      method: 'PUT',
      key: KEY_A,
      json: { files: broken },
    });
    expect(r.status).toBe(200);
    expect(r.body.draft.id).toBe(draft.id);
    expect(r.body.check.ok).toBe(false);
    expect(r.body.check.errors.map((e: { code: string }) => e.code)).toEqual(['YARE_BAD_STEP']);
    expect((await server.json(`/v1/builder/drafts/${draft.id}`, { key: KEY_A })).body.draft.files).toEqual(
      broken,
    );
    const plain = await server.json(`/v1/builder/drafts/${draft.id}`, {
      method: 'PUT',
      key: KEY_A,
      json: { files: POND },
    });
    expect(plain.body.check).toBeUndefined();
    // A save based on an old updatedAt (another tab saved since) is refused, naming the current one.
    const stale = await server.json(`/v1/builder/drafts/${draft.id}`, {
      method: 'PUT',
      key: KEY_A,
      json: { files: broken, baseUpdatedAt: r.body.draft.updatedAt },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('draft_changed');
    expect(stale.body.error.updatedAt).toBe(plain.body.draft.updatedAt);
    const current = await server.json(`/v1/builder/drafts/${draft.id}`, {
      method: 'PUT',
      key: KEY_A,
      json: { files: broken, baseUpdatedAt: plain.body.draft.updatedAt },
    });
    expect(current.status).toBe(200);
    expect(
      (
        await server.json(`/v1/builder/drafts/nope`, {
          method: 'PUT',
          key: KEY_A,
          json: { files: broken, baseUpdatedAt: 1 },
        })
      ).status,
    ).toBe(404);
    const bad = await server.json(`/v1/builder/drafts/${draft.id}?check=yes`, {
      method: 'PUT',
      key: KEY_A,
      json: {},
    });
    expect(bad.status).toBe(400);
  });
});

describe('complete', () => {
  it('completes state paths, macros, inputs, functions and event names from the rules given', async () => {
    const at = (text: string) => ({
      file: 'yare.yaml',
      text,
      offset: text.length,
      rules: { 'yare.yaml': POND_YARE },
    });
    const labels = async (text: string) =>
      (await post('/v1/builder/complete', at(text))).body.items.map((i: { label: string }) => i.label);
    expect(await labels(`${POND_YARE}      value: "@ state.player.`)).toEqual(['hp', 'wet']);
    expect(await labels(`${POND_YARE}      value: "@ macros.`)).toEqual(['swim_roll']);
    expect(await labels(`${POND_YARE}      value: "@ inputs.`)).toEqual(['style']);
    expect(await labels(`${POND_YARE}      - action: call\n        event: `)).toEqual(['swim']);
    expect(await labels(`${POND_YARE}      value: "@ ro`)).toContain('roll');
    const answer = (await post('/v1/builder/complete', at(`${POND_YARE}      value: "@ state.player.h`)))
      .body;
    expect(answer.from).toBe(`${POND_YARE}      value: "@ state.player.`.length);
    expect(answer.items[0]).toMatchObject({ label: 'hp', kind: 'field' });
    // Without rules only the schema's keys are known (here the keys of a step).
    const keys = await post('/v1/builder/complete', {
      file: 'yare.yaml',
      text: `${POND_YARE}      - action: set\n        `,
      offset: `${POND_YARE}      - action: set\n        `.length,
    });
    expect(keys.body.items.map((i: { label: string }) => i.label)).toEqual(
      expect.arrayContaining(['var', 'value']),
    );
    expect((await post('/v1/builder/complete', { file: 'yare.yaml', text: 'a', offset: 2 })).status).toBe(
      200,
    );
    expect((await post('/v1/builder/complete', { file: 'x.txt', text: 'a', offset: 0 })).status).toBe(400);
  });
});

describe('hover', () => {
  it('says what is under the cursor, from the rules given', async () => {
    const text = POND_YARE;
    const at = text.indexOf('state.player.hp') + 'state.player.h'.length;
    const r = await post('/v1/builder/hover', {
      file: 'yare.yaml',
      text,
      offset: at,
      rules: { 'yare.yaml': POND_YARE },
    });
    expect(r.status).toBe(200);
    expect(r.body.hover.markdown).toContain('**state.player.hp**');
    expect(r.body.hover.markdown).toContain('type `int`');
    const none = await post('/v1/builder/hover', { file: 'bot_lore.md', text: '# Pond', offset: 3 });
    expect(none.body).toEqual({ hover: null });
  });
});

describe('try', () => {
  it('runs an event on a chosen state with a seed: notes, dice and the diff, the same for the same seed', async () => {
    const body = {
      files: POND,
      event: 'swim',
      inputs: { style: 'paddle' },
      state: { player: { hp: 4 } },
      seed: 7,
    };
    const r = await post('/v1/builder/try', body);
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.rolls).toHaveLength(1);
    expect(r.body.rolls[0].dice).toBe('1d20');
    expect(r.body.notes[0]).toContain(`rolled ${r.body.rolls[0].total} swimming by paddle`);
    expect(r.body.changes).toEqual([
      { path: 'state.player.hp', op: 'set', before: 4, after: 3 },
      { path: 'state.player.wet', op: 'set', before: false, after: true },
    ]);
    expect((await post('/v1/builder/try', body)).body).toEqual(r.body);
  });

  it('refuses rules that do not compile (with their errors) and unknown events', async () => {
    const bad = await post('/v1/builder/try', {
      files: { 'yare.yaml': POND_YARE.replace('op: sub', 'op: subtract') },
      event: 'swim',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('rules_invalid');
    expect(bad.body.error.errors[0].where).toMatch(/^yare\.yaml:\d+:\d+$/);
    const unknown = await post('/v1/builder/try', { files: POND, event: 'fly' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toContain("no event 'fly'");
    expect(
      (await post('/v1/builder/try', { files: POND, event: 'swim', state: { player: [] } })).status,
    ).toBe(200);
  });
});

describe('try with rules in TypeScript or JavaScript (run in the checker worker)', () => {
  it('tries an event of a yare.ts draft', async () => {
    const ember = (file: string) => readFileSync(join(LANTERNMERE_DIR, '..', 'ember-toll', file), 'utf8');
    const r = await post('/v1/builder/try', {
      files: { 'yare.ts': ember('yare.ts'), 'bot_lore.md': ember('bot_lore.md') },
      event: 'pay_copper',
      seed: 3,
    });
    expect(r.status).toBe(200);
    expect(r.body.changes).toEqual(
      expect.arrayContaining([{ path: 'state.player.coins', op: 'set', before: 6, after: 4 }]),
    );
  });

  it('a yare.js that never ends is stopped by the sandbox, and the server answers other requests meanwhile', async () => {
    let settled = false;
    const trying = post('/v1/builder/try', {
      files: { 'yare.js': 'while (true) {}\nexport default {};\n' },
      event: 'x',
    }).finally(() => {
      settled = true;
    });
    const health = await server.json('/healthz');
    expect(health.status).toBe(200);
    // The request thread was free while the sandbox ran the endless module in the worker.
    expect(settled).toBe(false);
    const r = await trying;
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('rules_invalid');
    expect(r.body.error.errors[0].file).toBe('yare.js');
  });

  it('completion does not run a rules script: it offers keys only for yare.js rules', async () => {
    const text = 'x: "@ state.';
    const r = await post('/v1/builder/complete', {
      file: 'yare.yaml',
      text,
      offset: text.length,
      rules: { 'yare.js': 'while (true) {}\nexport default {};\n' },
    });
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([]);
  });
});

describe('save as version, play, download', () => {
  it('saves a valid draft as a version (again: the same version), refuses an invalid one, and plays it', async () => {
    const files = { ...POND, 'first-message.md': 'A second telling.\n' };
    const draft = (await post('/v1/builder/drafts', { name: 'Pond', files })).body.draft;
    // An earlier test saved a draft as "Pond Test": this one joins it only when asked to
    // (test/apps/server/builder-draft-names.test.ts).
    expect((await post(`/v1/builder/drafts/${draft.id}/versions`, undefined)).status).toBe(409);
    const first = await post(`/v1/builder/drafts/${draft.id}/versions?addTo=Pond%20Test`, undefined);
    expect(first.status).toBe(201);
    expect(first.body.version.name).toBe('Pond Test');
    const again = await post(`/v1/builder/drafts/${draft.id}/versions`, undefined);
    expect(again.status).toBe(200);
    expect(again.body.version.id).toBe(first.body.version.id);
    const versions = await server.json('/v1/cartridges/Pond%20Test/versions', { key: KEY_A });
    expect(versions.body.versions.map((v: { id: string }) => v.id)).toContain(first.body.version.id);
    const session = await post('/v1/sessions', { cartridge: first.body.version.id });
    expect(session.status).toBe(201);

    await server.json(`/v1/builder/drafts/${draft.id}`, {
      method: 'PUT',
      key: KEY_A,
      json: { files: { ...files, 'yare.yaml': POND_YARE.replace('op: sub', 'op: subtract') } },
    });
    const invalid = await post(`/v1/builder/drafts/${draft.id}/versions`, undefined);
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.errors[0].where).toMatch(/^yare\.yaml:\d+:\d+$/);
  });

  it('downloads a zip that the upload reader and the loader accept, with the draft’s files', async () => {
    const files = {
      'yare.yaml': lanternmere('yare.yaml'),
      'bot_lore.md': lanternmere('bot_lore.md'),
      'prompt_directives.yaml': lanternmere('prompt_directives.yaml'),
      'first-message.md': lanternmere('first-message.md'),
    };
    const draft = (await post('/v1/builder/drafts', { name: 'Lantern copy!', files })).body.draft;
    const response = await server.call(`/v1/builder/drafts/${draft.id}/archive`, { key: KEY_A });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="Lantern-copy.zip"');
    const read = readArchive(new Uint8Array(await response.arrayBuffer()));
    expect([...read.keys()].sort()).toEqual(Object.keys(files).sort());
    const texts = new Map([...read].map(([k, v]) => [k, Buffer.from(v).toString('utf8')]));
    expect(Object.fromEntries(texts)).toEqual(files);
    const loaded = loadCartridgeFromFiles(read, 'download');
    expect(loaded.ok).toBe(true);
  });
});

describe('generator results land as drafts', () => {
  it('a new draft with the repaired files and the transcript, or into the draft named', async () => {
    const events = await readSse(
      await server.call('/v1/builder/generate', {
        method: 'POST',
        key: KEY_A,
        json: { requirements: 'A mill pond with a swim and a wheel puzzle.' },
        headers: { accept: 'text/event-stream' },
      }),
    );
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    expect(done?.data.ok).toBe(true);
    const draft = (await server.json(`/v1/builder/drafts/${done?.data.draftId}`, { key: KEY_A })).body.draft;
    expect(draft.name).toBe('Mill Pond');
    expect(draft.files['yare.yaml']).toBe(FIXED_YARE);
    expect(draft.transcript).toContain('## Round 2 (repair)');

    const target = (
      await post('/v1/builder/drafts', { name: 'Target', files: { ...POND, 'intents.yaml': '{}\n' } })
    ).body.draft;
    expect(
      (
        await server.json('/v1/builder/generate', {
          method: 'POST',
          key: KEY_B,
          json: { requirements: 'x', draftId: target.id },
        })
      ).status,
    ).toBe(404);
    const into = await readSse(
      await server.call('/v1/builder/generate', {
        method: 'POST',
        key: KEY_A,
        json: { requirements: 'A pond.', draftId: target.id },
        headers: { accept: 'text/event-stream' },
      }),
    );
    expect(into.at(-1)?.data.draftId).toBe(target.id);
    const changed = (await server.json(`/v1/builder/drafts/${target.id}`, { key: KEY_A })).body.draft;
    expect(changed.name).toBe('Target');
    expect(changed.files['yare.yaml']).toBe(FIXED_YARE);
    // A file the generator does not write is kept.
    expect(changed.files['intents.yaml']).toBe('{}\n');
  });
});

describe('OpenAPI', () => {
  it('lists every builder route', async () => {
    const doc = (await server.json('/openapi.json')).body;
    for (const path of [
      '/v1/builder/templates',
      '/v1/builder/drafts',
      '/v1/builder/drafts/{id}',
      '/v1/builder/drafts/{id}/versions',
      '/v1/builder/drafts/{id}/archive',
      '/v1/builder/check',
      '/v1/builder/complete',
      '/v1/builder/hover',
      '/v1/builder/try',
      '/v1/builder/generate',
    ])
      expect(Object.keys(doc.paths), path).toContain(path);
  });
});
