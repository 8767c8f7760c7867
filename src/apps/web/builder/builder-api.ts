// The builder's client for the /v1/builder routes (docs/api.md): drafts, check, completion, try, save as
// version, the archive and the generator's stream. Answers are read without trusting their shape.

import { ApiFailure, type Problem, problemsOf, readAnswer } from '../lib/errors.ts';
import { ApiHttp, type SendOptions } from '../lib/http.ts';
import { jsonData, readSse } from '../lib/sse.ts';
import { isRecord } from '../../../core/is-record.ts';

export type BuilderFiles = Partial<Record<string, string>>;

export interface DraftSummaryView {
  readonly id: string;
  readonly name: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface DraftView extends DraftSummaryView {
  readonly files: BuilderFiles;
  readonly transcript: string | null;
}

export interface CheckView {
  readonly ok: boolean;
  readonly errors: readonly Problem[];
  readonly warnings: readonly Problem[];
}

export interface CompletionView {
  readonly from: number;
  readonly items: readonly {
    readonly label: string;
    readonly kind: string;
    readonly detail?: string;
    readonly info?: string;
    readonly apply?: string;
  }[];
}

export interface TryView {
  readonly ok: boolean;
  readonly notes: readonly string[];
  readonly rolls: readonly { expr: string; dice: string; faces: readonly number[]; total: number }[];
  readonly changes?: readonly { path: string; op: 'set' | 'delete'; before: unknown; after: unknown }[];
  readonly error?: { readonly code: string; readonly message: string; readonly where: string | null };
}

/** A place in a cartridge file and what was found there (the Explore pane). */
export interface LocatedView {
  readonly place: { readonly file: string; readonly line: number; readonly col: number };
  readonly what: string;
}

/** One explorer step, as the report gives it. */
export type ExploreStepView =
  | {
      readonly kind: 'event';
      readonly event: string;
      readonly inputs: Record<string, unknown>;
      readonly seed: number;
    }
  | {
      readonly kind: 'minigame';
      readonly result: { readonly minigame_id: string; readonly status: string };
      readonly seed: number;
    }
  | { readonly kind: 'wait'; readonly duration: string; readonly seed: number };

/** `mnesos explore`'s report (POST /v1/builder/explore). */
export interface ExploreView {
  readonly runs: number;
  readonly depth: number;
  readonly seed: number;
  readonly stepsPlayed: number;
  readonly eventsRun: number;
  readonly stoppedEarly: boolean;
  readonly violations: readonly {
    readonly kind: string;
    readonly message: string;
    readonly place?: LocatedView['place'];
    readonly steps: readonly ExploreStepView[];
    readonly originalLength: number;
  }[];
  readonly violationsDropped: number;
  readonly coverage: Record<
    'events' | 'steps' | 'branches' | 'notes' | 'lore',
    { readonly total: number; readonly missed: readonly LocatedView[] }
  > & {
    readonly worldInfo: { readonly total: number; readonly missed: readonly { uid: number; what: string }[] };
  };
}

export interface SavedVersion {
  readonly version: { readonly id: string; readonly name: string; readonly contentHash: string };
  readonly created: boolean;
}

/** The generator's progress, as the builder shows it. */
export type GenerateEvent =
  | { readonly type: 'round'; readonly round: number; readonly kind: string; readonly errors: number }
  | { readonly type: 'checked'; readonly round: number; readonly errors: readonly Problem[] }
  | { readonly type: 'saved'; readonly draftId: string | null }
  | { readonly type: 'done'; readonly ok: boolean; readonly draftId: string | null; readonly rounds: number }
  | { readonly type: 'error'; readonly message: string };

function filesOf(value: unknown): BuilderFiles {
  const out: BuilderFiles = {};
  if (!isRecord(value)) return out;
  for (const [name, text] of Object.entries(value)) if (typeof text === 'string') out[name] = text;
  return out;
}

function summaryOf(value: unknown): DraftSummaryView {
  const d = isRecord(value) ? value : {};
  return {
    id: String(d.id ?? ''),
    name: String(d.name ?? ''),
    createdAt: Number(d.createdAt ?? 0),
    updatedAt: Number(d.updatedAt ?? 0),
  };
}

function draftOf(body: unknown): DraftView {
  const d = isRecord(body) && isRecord(body.draft) ? body.draft : {};
  return {
    ...summaryOf(d),
    files: filesOf(d.files),
    transcript: typeof d.transcript === 'string' ? d.transcript : null,
  };
}

function updatedAtOf(body: unknown): number {
  const draft = isRecord(body) && isRecord(body.draft) ? body.draft : {};
  return Number(draft.updatedAt ?? 0);
}

function checkViewOf(body: unknown): CheckView {
  const d = isRecord(body) ? body : {};
  return { ok: d.ok === true, errors: problemsOf(d.errors), warnings: problemsOf(d.warnings) };
}

/** One generator stream message as a builder event (unknown events are skipped). */
export function generateEventOf(event: string, data: unknown): GenerateEvent | undefined {
  const d = isRecord(data) ? data : {};
  switch (event) {
    case 'round':
      return {
        type: 'round',
        round: Number(d.round ?? 0),
        kind: String(d.kind ?? ''),
        errors: Number(d.errors ?? 0),
      };
    case 'checked':
      return { type: 'checked', round: Number(d.round ?? 0), errors: problemsOf(d.errors) };
    case 'saved':
      return { type: 'saved', draftId: typeof d.draftId === 'string' ? d.draftId : null };
    case 'done':
      return {
        type: 'done',
        ok: d.ok === true,
        draftId: typeof d.draftId === 'string' ? d.draftId : null,
        rounds: Number(d.rounds ?? 0),
      };
    case 'error':
      return { type: 'error', message: String(d.message ?? 'the generator failed') };
    default:
      return undefined;
  }
}

export class BuilderApi {
  readonly #http: ApiHttp;

  constructor(base = '', apiKey: () => string | undefined = () => undefined) {
    this.#http = new ApiHttp(base, apiKey);
  }

  #request(method: string, path: string, body?: unknown, options: SendOptions = {}): Promise<unknown> {
    return this.#http.json(method, path, body === undefined ? undefined : { json: body }, options);
  }

  async templates(): Promise<string[]> {
    const body = await this.#request('GET', '/v1/builder/templates');
    return isRecord(body) && Array.isArray(body.templates) ? body.templates.map(String) : [];
  }

  async drafts(): Promise<DraftSummaryView[]> {
    const body = await this.#request('GET', '/v1/builder/drafts');
    return isRecord(body) && Array.isArray(body.drafts) ? body.drafts.map(summaryOf) : [];
  }

  async createDraft(body: {
    name: string;
    template?: string;
    fromVersion?: string;
    files?: BuilderFiles;
  }): Promise<DraftView> {
    return draftOf(await this.#request('POST', '/v1/builder/drafts', body));
  }

  async draft(id: string): Promise<DraftView> {
    return draftOf(await this.#request('GET', `/v1/builder/drafts/${encodeURIComponent(id)}`));
  }

  /**
   * Saves the draft and answers its new `updatedAt`. With `baseUpdatedAt` (the last one seen) a save made
   * elsewhere since is not overwritten: an ApiFailure `draft_changed`. `keepalive` lets a save started as
   * the page unloads finish.
   */
  async saveDraft(
    id: string,
    patch: { name?: string; files?: BuilderFiles; baseUpdatedAt?: number },
    keepalive = false,
  ): Promise<number> {
    const body = await this.#request('PUT', `/v1/builder/drafts/${encodeURIComponent(id)}`, patch, {
      keepalive,
    });
    return updatedAtOf(body);
  }

  /** Saves the draft's files and checks them, in one request (the builder's pause after typing). */
  async saveAndCheck(
    id: string,
    files: BuilderFiles,
    baseUpdatedAt: number,
  ): Promise<{ check: CheckView; updatedAt: number }> {
    const body = await this.#request('PUT', `/v1/builder/drafts/${encodeURIComponent(id)}?check=true`, {
      files,
      baseUpdatedAt,
    });
    return { check: checkViewOf(isRecord(body) ? body.check : undefined), updatedAt: updatedAtOf(body) };
  }

  async deleteDraft(id: string): Promise<void> {
    await this.#request('DELETE', `/v1/builder/drafts/${encodeURIComponent(id)}`);
  }

  async check(files: BuilderFiles, signal?: AbortSignal): Promise<CheckView> {
    return checkViewOf(await this.#request('POST', '/v1/builder/check', { files }, signal ? { signal } : {}));
  }

  async complete(
    request: { file: string; text: string; offset: number; rules?: BuilderFiles },
    signal?: AbortSignal,
  ): Promise<CompletionView> {
    const body = await this.#request('POST', '/v1/builder/complete', request, signal ? { signal } : {});
    const d = isRecord(body) ? body : {};
    const items = Array.isArray(d.items) ? d.items.filter(isRecord) : [];
    return {
      from: Number(d.from ?? request.offset),
      items: items.map((i) => ({
        label: String(i.label ?? ''),
        kind: String(i.kind ?? 'key'),
        ...(typeof i.detail === 'string' ? { detail: i.detail } : {}),
        ...(typeof i.info === 'string' ? { info: i.info } : {}),
        ...(typeof i.apply === 'string' ? { apply: i.apply } : {}),
      })),
    };
  }

  /** The language server's hover at an offset, as Markdown text (null: nothing to say there). */
  async hover(
    request: { file: string; text: string; offset: number; rules?: BuilderFiles },
    signal?: AbortSignal,
  ): Promise<string | null> {
    const body = await this.#request('POST', '/v1/builder/hover', request, signal ? { signal } : {});
    const found = isRecord(body) && isRecord(body.hover) ? body.hover : undefined;
    return typeof found?.markdown === 'string' ? found.markdown : null;
  }

  async tryEvent(request: {
    files: BuilderFiles;
    event: string;
    inputs?: Record<string, unknown>;
    state?: Record<string, unknown>;
    seed?: number;
  }): Promise<TryView> {
    return (await this.#request('POST', '/v1/builder/try', request)) as TryView;
  }

  async explore(request: {
    files: BuilderFiles;
    runs?: number;
    depth?: number;
    seed?: number;
    state?: Record<string, unknown>;
  }): Promise<ExploreView> {
    return ((await this.#request('POST', '/v1/builder/explore', request)) as { report: ExploreView }).report;
  }

  /** `addTo`: the cartridge the draft joins when its bot_name names one the caller has (else 409 name_taken). */
  async saveVersion(id: string, addTo?: string): Promise<SavedVersion> {
    const query = addTo === undefined ? '' : `?addTo=${encodeURIComponent(addTo)}`;
    return (await this.#request(
      'POST',
      `/v1/builder/drafts/${encodeURIComponent(id)}/versions${query}`,
    )) as SavedVersion;
  }

  /** The draft as a zip archive (a Blob to hand to a download link). */
  async archive(id: string): Promise<Blob> {
    const response = await this.#http.send('GET', `/v1/builder/drafts/${encodeURIComponent(id)}/archive`);
    if (!response.ok) await readAnswer(response);
    return response.blob();
  }

  /** The caller's own cartridges (they may edit them), each with its newest version, to start a draft from. */
  async editableCartridges(): Promise<{ label: string; versionId: string }[]> {
    const body = await this.#request('GET', '/v1/cartridges');
    const list = isRecord(body) && Array.isArray(body.cartridges) ? body.cartridges.filter(isRecord) : [];
    return list
      .filter((c) => (c.canEdit ?? c.owner === 'self') === true && isRecord(c.latest))
      .map((c) => ({
        label: String(c.title || c.name || ''),
        versionId: String((c.latest as Record<string, unknown>).id ?? ''),
      }))
      .filter((c) => c.versionId !== '');
  }

  async startSession(versionId: string): Promise<string> {
    const body = await this.#request('POST', '/v1/sessions', { cartridge: versionId });
    const session = isRecord(body) && isRecord(body.session) ? body.session : {};
    return String(session.id ?? '');
  }

  /** Streams the generator; its result is saved as a draft (`done.draftId`). */
  async *generate(
    body: { requirements: string; draftId?: string; rounds?: number; existing?: BuilderFiles },
    signal?: AbortSignal,
  ): AsyncGenerator<GenerateEvent> {
    const response = await this.#http.send(
      'POST',
      '/v1/builder/generate',
      { json: body },
      { headers: { accept: 'text/event-stream' }, ...(signal ? { signal } : {}) },
    );
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || response.body === null || !type.includes('text/event-stream')) {
      await readAnswer(response);
      throw new ApiFailure(
        response.status,
        'not_a_stream',
        'the generator did not answer with an event stream',
      );
    }
    for await (const message of readSse(response.body, signal)) {
      const event = generateEventOf(message.event, jsonData(message));
      if (event) yield event;
    }
  }
}
