// One open draft's life on the server, apart from its views: every edit is saved shortly after it is made
// and checked in the same request (one queue, so an older text never lands after a newer one); a save
// that fails is tried again (SAVE_RETRY_MS) with the text kept dirty, so a reload never finds less than the
// last save; a save refused because the draft was saved elsewhere (`draft_changed`) stops saving until the
// author keeps theirs or takes the other; a save still pending as the page goes is sent with keepalive.
// The views read `state` and are told of each change (builder/use-draft-session.ts).

import { safeParse } from 'zod/mini';
import { draftChangedDetails } from '../../contract/index.ts';
import { ApiFailure, failureText, type Problem } from '../lib/errors.ts';
import type { BuilderApi, BuilderFiles, CheckView } from './builder-api.ts';
import { RULES_FILES } from './draft-files.ts';

/** Milliseconds after the last keystroke before the draft is saved and checked (one request). */
export const SYNC_DELAY_MS = 400;
/** Milliseconds before a failed save (a network blip, the rate limit) is tried again. */
export const SAVE_RETRY_MS = 5_000;

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'failed';
export type CheckState =
  | { readonly kind: 'checking' }
  | { readonly kind: 'done'; readonly result: CheckView }
  | { readonly kind: 'failed'; readonly message: string };

/** A problem of the last check with its severity, as the editors and the problems list show it. */
export type Finding = Problem & { readonly severity: 'error' | 'warning' };

export interface DraftSessionState {
  readonly save: SaveState;
  readonly check: CheckState;
  /** Set when a save found the draft saved elsewhere (its `updatedAt` then): saving waits for the author. */
  readonly conflict: { readonly updatedAt: number } | undefined;
  readonly findings: readonly Finding[];
}

/** What the session tells its views: its state changed, or the files were replaced from the server. */
export interface DraftSessionEvents {
  readonly changed: (state: DraftSessionState) => void;
  readonly replaced: (files: BuilderFiles) => void;
}

/** Timers, replaceable in tests. */
export interface Scheduler {
  readonly after: (ms: number, run: () => void) => unknown;
  readonly cancel: (handle: unknown) => void;
}

const realTimers: Scheduler = {
  after: (ms, run) => setTimeout(run, ms),
  cancel: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function findingsOf(result: CheckView): Finding[] {
  return [
    ...result.errors.map((p) => ({ ...p, severity: 'error' as const })),
    ...result.warnings.map((p) => ({ ...p, severity: 'warning' as const })),
  ];
}

function rulesOf(files: BuilderFiles): BuilderFiles {
  const out: BuilderFiles = {};
  for (const name of RULES_FILES) if (files[name] !== undefined) out[name] = files[name];
  return out;
}

export class DraftSession {
  #state: DraftSessionState = {
    save: 'saved',
    check: { kind: 'checking' },
    conflict: undefined,
    findings: [],
  };
  #files: BuilderFiles = {};
  #dirty = false;
  /** The draft's `updatedAt` as this page last saved or read it: a save elsewhere since is not overwritten. */
  #base = 0;
  /** Saves run one after another, so an older text never lands after a newer one. */
  #queue: Promise<unknown> = Promise.resolve();
  #timer: unknown;
  #checkSeq = 0;
  #lastGoodRules: BuilderFiles | undefined;

  constructor(
    readonly api: BuilderApi,
    readonly id: string,
    readonly events: DraftSessionEvents,
    readonly timers: Scheduler = realTimers,
  ) {}

  get state(): DraftSessionState {
    return this.#state;
  }

  /** The files as the editors have them now. */
  get files(): BuilderFiles {
    return this.#files;
  }

  /** The rules that last compiled, so completion knows the state while the rules are broken. */
  get lastGoodRules(): BuilderFiles | undefined {
    return this.#lastGoodRules;
  }

  #set(patch: Partial<DraftSessionState>): void {
    this.#state = { ...this.#state, ...patch };
    this.events.changed(this.#state);
  }

  #schedule(ms: number): void {
    this.timers.cancel(this.#timer);
    this.#timer = this.timers.after(ms, () => void this.sync());
  }

  /** The draft as read from the server: its files and `updatedAt` become this session's; then a check. */
  opened(files: BuilderFiles, updatedAt: number): Promise<void> {
    this.#files = { ...files };
    this.#base = updatedAt;
    return this.sync();
  }

  /** An edit of one file: saved and checked after SYNC_DELAY_MS without another. */
  edited(file: string, text: string): void {
    this.#files = { ...this.#files, [file]: text };
    this.#dirty = true;
    this.#set({ save: 'unsaved' });
    this.#schedule(SYNC_DELAY_MS);
  }

  /** Runs `work` after every save before it, and keeps the queue going whether it fails or not. */
  #queued<T>(work: () => Promise<T>): Promise<T> {
    const request = this.#queue.then(work);
    this.#queue = request.catch(() => undefined);
    return request;
  }

  /**
   * Saves the files if they changed (and checks them in the same request), or only checks them; a result
   * that arrives after a newer one was asked for is dropped.
   */
  async sync(): Promise<void> {
    this.timers.cancel(this.#timer);
    const seq = ++this.#checkSeq;
    const snapshot = { ...this.#files };
    const save = this.#dirty && this.#state.conflict === undefined;
    if (save) this.#dirty = false;
    this.#set(save ? { check: { kind: 'checking' }, save: 'saving' } : { check: { kind: 'checking' } });
    try {
      const result = await this.#queued(async () => {
        if (!save) return this.api.check(snapshot);
        const saved = await this.api.saveAndCheck(this.id, snapshot, this.#base);
        this.#base = saved.updatedAt;
        return saved.check;
      });
      if (save) this.#set({ save: this.#dirty ? 'unsaved' : 'saved' });
      if (seq === this.#checkSeq) this.#checked(snapshot, result);
    } catch (error) {
      if (save && this.#saveFailed(error) === 'failed') this.#schedule(SAVE_RETRY_MS);
      if (seq === this.#checkSeq) this.#set({ check: { kind: 'failed', message: failureText(error) } });
    }
  }

  #checked(snapshot: BuilderFiles, result: CheckView): void {
    if (!result.errors.some((p) => RULES_FILES.includes(p.file))) this.#lastGoodRules = rulesOf(snapshot);
    this.#set({ check: { kind: 'done', result }, findings: findingsOf(result) });
  }

  /**
   * A save failed: the text stays dirty (a reload after this still finds the last saved text, never less).
   * `conflict` when it was refused because the draft was saved elsewhere: saving stops until the author
   * chooses; `failed` otherwise, to be tried again.
   */
  #saveFailed(error: unknown): 'conflict' | 'failed' {
    this.#dirty = true;
    this.#set({ save: 'failed' });
    return this.#conflicted(error) ? 'conflict' : 'failed';
  }

  /** Whether `error` is the refusal of a save because the draft was saved elsewhere: then saving stops. */
  #conflicted(error: unknown): boolean {
    if (!(error instanceof ApiFailure) || error.code !== 'draft_changed') return false;
    const details = safeParse(draftChangedDetails, error.details);
    this.#set({ conflict: { updatedAt: details.success ? details.data.updatedAt : 0 } });
    return true;
  }

  /**
   * Saves now what is not saved yet (before save as version, test play, download, the generator): true
   * once it is saved; false when it cannot be (a conflict), or when the save failed (`failure` says why).
   */
  async flush(): Promise<{ readonly saved: boolean; readonly failure?: string }> {
    this.timers.cancel(this.#timer);
    if (!this.#dirty) {
      await this.#queue;
      return { saved: true };
    }
    if (this.#state.conflict !== undefined) return { saved: false };
    this.#dirty = false;
    this.#set({ save: 'saving' });
    const snapshot = { ...this.#files };
    try {
      await this.#queued(async () => {
        this.#base = await this.api.saveDraft(this.id, { files: snapshot, baseUpdatedAt: this.#base });
      });
      this.#set({ save: this.#dirty ? 'unsaved' : 'saved' });
      return { saved: true };
    } catch (error) {
      if (this.#saveFailed(error) === 'conflict') return { saved: false };
      return { saved: false, failure: `The draft was not saved: ${failureText(error)}` };
    }
  }

  /** Renames the draft, in the save queue (its new `updatedAt` is the base of the next save). */
  async rename(name: string): Promise<'renamed' | 'conflict'> {
    try {
      await this.#queued(async () => {
        this.#base = await this.api.saveDraft(this.id, { name, baseUpdatedAt: this.#base });
      });
      return 'renamed';
    } catch (error) {
      if (this.#conflicted(error)) return 'conflict';
      throw error;
    }
  }

  /** The conflict resolved by keeping this page's text: it overwrites the other save. */
  keepMine(): Promise<void> {
    const conflict = this.#state.conflict;
    if (conflict !== undefined) this.#base = conflict.updatedAt;
    this.#dirty = true;
    this.#set({ conflict: undefined });
    return this.sync();
  }

  /** The draft was changed on the server (the other save, the generator): its files replace the editors'. */
  async reload(): Promise<{ readonly transcript: string | null }> {
    const draft = await this.api.draft(this.id);
    this.#base = draft.updatedAt;
    for (const [file, text] of Object.entries(draft.files))
      if (text !== undefined) this.#files = { ...this.#files, [file]: text };
    this.#dirty = false;
    this.#set({ save: 'saved', conflict: undefined });
    this.events.replaced(draft.files);
    void this.sync();
    return { transcript: draft.transcript };
  }

  /** Forgets what is unsaved (the draft was deleted). */
  discard(): void {
    this.timers.cancel(this.#timer);
    this.#dirty = false;
  }

  /** The page goes away: a save still pending is sent with keepalive, so it outlives the page. */
  leave(): void {
    this.timers.cancel(this.#timer);
    if (!this.#dirty) return;
    this.#dirty = false;
    if (this.#state.conflict !== undefined) return;
    const body = { files: { ...this.#files }, baseUpdatedAt: this.#base };
    void this.api.saveDraft(this.id, body, true).catch(() => undefined);
  }
}
