// The builder's draft session (src/apps/web/builder/draft-session.ts) against a real server (SQLite,
// offline): edits are saved and checked after SYNC_DELAY_MS in one request, a refused save is kept dirty
// and tried again after SAVE_RETRY_MS, a save elsewhere stops saving until the author keeps theirs or takes
// the other, flush saves at once, and a pending save goes out as the page leaves. Timers are the test's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/apps/server/start.ts';
import { BuilderApi, type BuilderFiles } from '../../../src/apps/web/builder/builder-api.ts';
import {
  DraftSession,
  type DraftSessionState,
  SAVE_RETRY_MS,
  type Scheduler,
  SYNC_DELAY_MS,
} from '../../../src/apps/web/builder/draft-session.ts';
import { ApiHttp } from '../../../src/apps/web/lib/http.ts';

/** Timers that run only when the test says so. */
class ManualTimers implements Scheduler {
  pending = new Map<number, { ms: number; run: () => void }>();
  #next = 0;
  readonly after = (ms: number, run: () => void): unknown => {
    this.#next += 1;
    this.pending.set(this.#next, { ms, run });
    return this.#next;
  };
  readonly cancel = (handle: unknown): void => {
    this.pending.delete(handle as number);
  };
  /** The delays waiting, in order. */
  delays(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }
  /** Runs every waiting timer once. */
  fire(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.run();
  }
}

let dir: string;
let server: RunningServer;
let api: BuilderApi;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mnesos-draft-session-'));
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, 'db.sqlite'),
    models: () => null,
  });
  api = new BuilderApi(new ApiHttp(server.url));
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a draft session', () => {
  let timers: ManualTimers;
  let states: DraftSessionState[];
  let replaced: BuilderFiles[];
  let session: DraftSession;
  let draftId: string;

  beforeEach(async () => {
    const draft = await api.createDraft({ name: 'session', template: 'empty' });
    draftId = draft.id;
    timers = new ManualTimers();
    states = [];
    replaced = [];
    session = new DraftSession(
      api,
      draft.id,
      { changed: (s) => states.push(s), replaced: (f) => replaced.push(f) },
      timers,
    );
    await session.opened(draft.files, draft.updatedAt);
  });

  const last = () => states.at(-1)!;
  const settle = async () => {
    // The session's requests are real: wait for the queue to drain.
    await session.flush();
  };

  it('checks the draft as it opens, then saves and checks an edit after SYNC_DELAY_MS, in one request', async () => {
    expect(last().check.kind).toBe('done');
    const text = `${session.files['yare.yaml'] ?? ''}\n# edited\n`;
    session.edited('yare.yaml', text);
    expect(last().save).toBe('unsaved');
    expect(timers.delays()).toEqual([SYNC_DELAY_MS]);
    // Another keystroke moves the pause: still one timer.
    session.edited('yare.yaml', `${text}# again\n`);
    expect(timers.delays()).toEqual([SYNC_DELAY_MS]);
    timers.fire();
    expect(last().save).toBe('saving');
    await settle();
    expect(last().save).toBe('saved');
    expect(last().check.kind).toBe('done');
    expect((await api.draft(draftId)).files['yare.yaml']).toBe(`${text}# again\n`);
  });

  it('keeps a refused save dirty and tries it again after SAVE_RETRY_MS', async () => {
    session.edited('not-a-cartridge-file.txt', 'x');
    timers.fire();
    await expect.poll(() => last().save).toBe('failed');
    expect(last().conflict).toBeUndefined();
    expect(timers.delays()).toEqual([SAVE_RETRY_MS]);
    // Flushing tries at once and says why it could not.
    const flushed = await session.flush();
    expect(flushed.saved).toBe(false);
    expect(flushed.failure).toMatch(/^The draft was not saved: /);
  });

  it('stops saving when the draft was saved elsewhere, until the author keeps theirs or takes the other', async () => {
    const elsewhere = await api.draft(draftId);
    await api.saveDraft(draftId, {
      files: { 'bot_lore.md': 'the other tab' },
      baseUpdatedAt: elsewhere.updatedAt,
    });
    session.edited('bot_lore.md', 'this tab');
    timers.fire();
    await expect.poll(() => last().conflict).toBeDefined();
    expect(last().save).toBe('failed');
    // No retry while in conflict, and a flush does not overwrite the other save.
    expect(timers.delays()).toEqual([]);
    expect(await session.flush()).toEqual({ saved: false });
    expect((await api.draft(draftId)).files['bot_lore.md']).toBe('the other tab');

    await session.keepMine();
    await settle();
    expect(last().conflict).toBeUndefined();
    expect((await api.draft(draftId)).files['bot_lore.md']).toBe('this tab');
  });

  it('takes the other save: the files are replaced from the server and saving goes on', async () => {
    const elsewhere = await api.draft(draftId);
    await api.saveDraft(draftId, { files: { 'bot_lore.md': 'theirs' }, baseUpdatedAt: elsewhere.updatedAt });
    session.edited('bot_lore.md', 'mine');
    timers.fire();
    await expect.poll(() => last().conflict).toBeDefined();
    await session.reload();
    expect(last().conflict).toBeUndefined();
    expect(replaced.at(-1)?.['bot_lore.md']).toBe('theirs');
    expect(session.files['bot_lore.md']).toBe('theirs');
    session.edited('bot_lore.md', 'after');
    expect((await session.flush()).saved).toBe(true);
    expect((await api.draft(draftId)).files['bot_lore.md']).toBe('after');
  });

  it('renames in the save queue, and sends a pending save with keepalive as the page leaves', async () => {
    expect(await session.rename('renamed')).toBe('renamed');
    expect((await api.draft(draftId)).name).toBe('renamed');
    session.edited('bot_lore.md', 'left behind');
    session.leave();
    expect(timers.delays()).toEqual([]);
    await expect.poll(async () => (await api.draft(draftId)).files['bot_lore.md']).toBe('left behind');
  });
});
