// The builder's client for the /v1/builder routes (docs/api.md): drafts, check, completion, hover, try,
// explore, save as version, the archive, test play and the generator's stream. Every answer is parsed with
// the contract's schema (apps/contract) and every generator event with its event's schema.

import {
  builderCheckResponse,
  cartridgesResponse,
  completionResponse,
  createdSessionResponse,
  type DiagnosticView,
  type DraftView,
  draftResponse,
  draftsResponse,
  exploreResponse,
  type GenerateStreamEvent,
  generateStreamEvents,
  hoverResponse,
  minigamesResponse,
  savedDraftResponse,
  templatesResponse,
  tryResponse,
  uploadResponse,
} from '../../contract/index.ts';
import { ApiFailure, type Problem, readAnswer } from '../lib/errors.ts';
import type { ApiHttp, SendOptions } from '../lib/http.ts';
import { eventOf, jsonData, openEventStream, readSse } from '../lib/sse.ts';

/** A draft's files by name (a file left out is not in the draft). */
export type BuilderFiles = DraftView['files'];

/** A check's findings as `file:line:col` problems (one without a place is at `?:0:0`). */
export interface CheckView {
  readonly ok: boolean;
  readonly errors: readonly Problem[];
  readonly warnings: readonly Problem[];
}

/** What completion and hover are asked: a file's text, the offset, and the rules that last compiled. */
export interface EditorRequest {
  readonly file: string;
  readonly text: string;
  readonly offset: number;
  readonly rules?: BuilderFiles;
}

function problemOf(d: DiagnosticView): Problem {
  return { file: d.file ?? '?', line: d.line ?? 0, col: d.col ?? 0, message: d.message, code: d.code };
}

function checkViewOf(check: {
  readonly ok: boolean;
  readonly errors: readonly DiagnosticView[];
  readonly warnings: readonly DiagnosticView[];
}): CheckView {
  return { ok: check.ok, errors: check.errors.map(problemOf), warnings: check.warnings.map(problemOf) };
}

/**
 * One generator stream message parsed with its event's schema: undefined for an event this client does not
 * know; a `bad_response` ApiFailure for one that does not match.
 */
export function generateEventOf(event: string, data: unknown): GenerateStreamEvent | ApiFailure | undefined {
  return eventOf(generateStreamEvents, { event, data }, 'the generator stream');
}

const draftPath = (id: string) => `/v1/builder/drafts/${encodeURIComponent(id)}`;

export class BuilderApi {
  readonly #http: ApiHttp;

  constructor(http: ApiHttp) {
    this.#http = http;
  }

  async templates(): Promise<readonly string[]> {
    return (await this.#http.answer(templatesResponse, 'GET', '/v1/builder/templates')).templates;
  }

  async drafts() {
    return (await this.#http.answer(draftsResponse, 'GET', '/v1/builder/drafts')).drafts;
  }

  async createDraft(body: { name: string; template?: string; fromVersion?: string; files?: BuilderFiles }) {
    return (await this.#http.answer(draftResponse, 'POST', '/v1/builder/drafts', { json: body })).draft;
  }

  async draft(id: string) {
    return (await this.#http.answer(draftResponse, 'GET', draftPath(id))).draft;
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
    const saved = await this.#http.answer(
      savedDraftResponse,
      'PUT',
      draftPath(id),
      { json: patch },
      { keepalive },
    );
    return saved.draft.updatedAt;
  }

  /** Saves the draft's files and checks them, in one request (the builder's pause after typing). */
  async saveAndCheck(
    id: string,
    files: BuilderFiles,
    baseUpdatedAt: number,
  ): Promise<{ check: CheckView; updatedAt: number }> {
    const body = { json: { files, baseUpdatedAt } };
    const saved = await this.#http.answer(savedDraftResponse, 'PUT', `${draftPath(id)}?check=true`, body);
    if (saved.check === undefined)
      throw new ApiFailure(
        200,
        'bad_response',
        `the server's answer to PUT ${draftPath(id)}?check=true has no check`,
      );
    return { check: checkViewOf(saved.check), updatedAt: saved.draft.updatedAt };
  }

  deleteDraft(id: string): Promise<void> {
    return this.#http.done('DELETE', draftPath(id));
  }

  async check(files: BuilderFiles, signal?: AbortSignal): Promise<CheckView> {
    const options: SendOptions = { signal };
    return checkViewOf(
      await this.#http.answer(
        builderCheckResponse,
        'POST',
        '/v1/builder/check',
        { json: { files } },
        options,
      ),
    );
  }

  complete(request: EditorRequest, signal?: AbortSignal) {
    return this.#http.answer(
      completionResponse,
      'POST',
      '/v1/builder/complete',
      { json: request },
      { signal },
    );
  }

  /** The language server's hover at an offset, as Markdown text (null: nothing to say there). */
  async hover(request: EditorRequest, signal?: AbortSignal): Promise<string | null> {
    const body = { json: request };
    return (
      (await this.#http.answer(hoverResponse, 'POST', '/v1/builder/hover', body, { signal })).hover
        ?.markdown ?? null
    );
  }

  tryEvent(request: {
    files: BuilderFiles;
    event: string;
    inputs?: Record<string, unknown>;
    state?: Record<string, unknown>;
    seed?: number;
  }) {
    return this.#http.answer(tryResponse, 'POST', '/v1/builder/try', { json: request });
  }

  async explore(request: {
    files: BuilderFiles;
    runs?: number;
    depth?: number;
    seed?: number;
    state?: Record<string, unknown>;
  }) {
    return (await this.#http.answer(exploreResponse, 'POST', '/v1/builder/explore', { json: request }))
      .report;
  }

  /** `addTo`: the cartridge the draft joins when its bot_name names one the caller has (else 409 name_taken). */
  saveVersion(id: string, addTo?: string) {
    const query = addTo === undefined ? '' : `?addTo=${encodeURIComponent(addTo)}`;
    return this.#http.answer(uploadResponse, 'POST', `${draftPath(id)}/versions${query}`);
  }

  /** The draft as a zip archive (a Blob to hand to a download link). */
  async archive(id: string): Promise<Blob> {
    const response = await this.#http.send('GET', `${draftPath(id)}/archive`);
    if (!response.ok) await readAnswer(response);
    return response.blob();
  }

  /** The caller's own cartridges (they may edit them), each with its newest version, to start a draft from. */
  async editableCartridges(): Promise<{ label: string; versionId: string }[]> {
    const { cartridges } = await this.#http.answer(cartridgesResponse, 'GET', '/v1/cartridges');
    return cartridges
      .filter((c) => c.canEdit)
      .map((c) => ({ label: c.title || c.name, versionId: c.latest.id }));
  }

  /** The mini-games a cartridge may start, each with its settings, hooks and metrics (the reference). */
  async minigames() {
    return (await this.#http.answer(minigamesResponse, 'GET', '/v1/minigames')).minigames;
  }

  async startSession(versionId: string): Promise<string> {
    const body = { json: { cartridge: versionId } };
    return (await this.#http.answer(createdSessionResponse, 'POST', '/v1/sessions', body)).session.id;
  }

  /**
   * Streams the generator; its result is saved as a draft (`done.draftId`). A malformed event ends the
   * stream with its `bad_response` ApiFailure (thrown).
   */
  async *generate(
    body: { requirements: string; draftId?: string; rounds?: number; existing?: BuilderFiles },
    signal?: AbortSignal,
  ): AsyncGenerator<GenerateStreamEvent> {
    const opened = await openEventStream(this.#http, '/v1/builder/generate', body, signal);
    if (opened.kind === 'answer')
      throw new ApiFailure(
        opened.status,
        'not_a_stream',
        'the generator did not answer with an event stream',
      );
    for await (const message of readSse(opened.body, signal)) {
      const event = generateEventOf(message.event, jsonData(message));
      if (event instanceof ApiFailure) throw event;
      if (event !== undefined) yield event;
    }
  }
}
