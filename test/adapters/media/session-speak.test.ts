// `mnesos session speak`: the terminal writes a stored turn's audio to a file — through a fake speech
// server (quoted lines in the cartridge characters' voices) and through the real espeak-ng.

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { espeakInstalled, readWav } from '../../../src/adapters/media/index.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import { localPrincipal } from '../../../src/apps/server/auth.ts';
import { CartridgeLibrary, SessionService } from '../../../src/engine/session/index.ts';
import { ROOT, runCli, SPAWN_TIMEOUT_MS, tempDir, useCompiledCli } from '../../apps/cli/helpers.ts';
import { type FakeMedia, startFakeMedia } from '../../helpers/fake-media-server.ts';

useCompiledCli();

let fake: FakeMedia;
let tmp: ReturnType<typeof tempDir>;
let db: string;
let sessionId: string;
let narration: string;

beforeAll(async () => {
  fake = await startFakeMedia();
  tmp = tempDir();
  db = join(tmp.dir, 'mnesos.db');
  const store = await openStore(db);
  try {
    const library = new CartridgeLibrary(store);
    const registered = await library.registerFolder(resolve(ROOT, 'cartridges/lanternmere'));
    if (!registered.ok) throw new Error('lanternmere does not load');
    const service = new SessionService({ store, library, models: () => null });
    const principal = await localPrincipal(store);
    const { session, turn } = await service.createSession(principal.id, {
      cartridgeVersion: registered.version.id,
    });
    sessionId = session.id;
    narration = turn.narration;
    await service.close();
  } finally {
    await store.close();
  }
});
afterAll(async () => {
  await fake.close();
  tmp.cleanup();
});

describe('mnesos session speak', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it("writes the head turn's audio through the speech server, Mother Hesk's lines in her voice", async () => {
    // The opening has Mother Hesk speak in quotes (cartridges/lanternmere/first-message.md).
    expect(narration).toMatch(/"[^"]+," Mother Hesk/);
    const out = join(tmp.dir, 'opening.wav');
    const result = await runCli(['session', 'speak', sessionId, '--out', out, '--db', db], {
      cwd: tmp.dir,
      env: { MNESOS_SPEECH_URL: fake.url, MNESOS_SPEECH_VOICES: 'Mother Hesk=nova' },
    });
    expect(result.stderr).toMatch(/wrote .*opening\.wav: \d+ piece\(s\) by http:\/\/127\.0\.0\.1/);
    expect(result.code).toBe(0);
    const voices = fake.requests.map((r) => r.body.voice);
    expect(voices).toContain('nova');
    expect(voices).toContain('alloy');
    const spokenChars = fake.requests.reduce((n, r) => n + String(r.body.input).length, 0);
    expect(readWav(readFileSync(out)).samples.length).toBe(spokenChars * 2);
  });

  it('an unknown session is a clear error and writes nothing', async () => {
    const out = join(tmp.dir, 'none.wav');
    const result = await runCli(['session', 'speak', 'no-such-session', '--out', out, '--db', db], {
      cwd: tmp.dir,
      env: { MNESOS_SPEECH_URL: fake.url },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('session no-such-session not found');
    expect(existsSync(out)).toBe(false);
  });

  it.runIf(espeakInstalled())('with no speech server set, espeak-ng reads it', async () => {
    const out = join(tmp.dir, 'espeak.wav');
    const result = await runCli(['session', 'speak', sessionId, '--out', out, '--db', db], { cwd: tmp.dir });
    expect(result.stderr).toMatch(/by espeak-ng/);
    expect(result.code).toBe(0);
    expect(readWav(readFileSync(out)).samples.length).toBeGreaterThan(10_000);
  });
});
