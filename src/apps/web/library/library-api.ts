// The Library's client (docs/api.md, "Cartridges", "Library" and "Sessions"): the cartridges with their
// metadata, visibility, cover and versions (tags, notes, archiving, deleting, single-file updates),
// uploads and card imports, and the player's games. Every answer is parsed with the contract's schema
// (apps/contract).

import {
  cartridgeDetailResponse,
  cartridgesResponse,
  createdSessionResponse,
  importResponse,
  libraryCartridgeResponse,
  libraryVersionResponse,
  sessionsResponse,
  uploadResponse,
  versionsResponse,
} from '../../contract/index.ts';
import { failureOf } from '../lib/errors.ts';
import type { ApiHttp } from '../lib/http.ts';

export interface MetadataPatch {
  readonly title?: string;
  readonly description?: string;
  readonly genre?: string;
  readonly tags?: readonly string[];
  readonly visibility?: 'private' | 'public';
  readonly archived?: boolean;
}

export interface VersionPatch {
  readonly tag?: string | null;
  readonly notes?: string | null;
  readonly archived?: boolean;
}

/** What starts a game: a cartridge (name, id or version id), and optionally a persona, seed and title. */
export interface NewSession {
  readonly cartridge: string;
  readonly personaId?: string | null;
  readonly seed?: number;
  readonly title?: string | null;
}

/** Characters of a cartridge name taken from an archive's file name (the server's name limit is larger). */
export const MAX_CARTRIDGE_NAME_CHARS = 100;

/** The cartridge name an archive's file name suggests (`lanternmere-v2.tar.gz` → `lanternmere-v2`). */
export function cartridgeNameOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base
    .replace(/\.(tar\.gz|tgz|zip|tar)$/i, '')
    .trim()
    .slice(0, MAX_CARTRIDGE_NAME_CHARS);
}

/** How an upload is sent: a SillyTavern card or World Info file is imported (docs/sillytavern.md). */
function uploadKind(fileName: string): { readonly card: boolean; readonly type: string } {
  const card = /\.(png|json|charx)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (card === 'png') return { card: true, type: 'image/png' };
  if (card === 'json') return { card: true, type: 'application/json' };
  if (card !== undefined) return { card: true, type: 'application/zip' };
  return { card: false, type: /\.(tar\.gz|tgz)$/i.test(fileName) ? 'application/gzip' : 'application/zip' };
}

const cartridgePath = (ref: string) => `/v1/cartridges/${encodeURIComponent(ref)}`;
const versionPath = (id: string) => `/v1/cartridge-versions/${encodeURIComponent(id)}`;

export class LibraryApi {
  readonly #http: ApiHttp;

  constructor(http: ApiHttp) {
    this.#http = http;
  }

  /** The cartridges the caller may start, each with its newest version, and the caller's storage use. */
  list(includeArchived = false) {
    return this.#http.answer(
      cartridgesResponse,
      'GET',
      `/v1/cartridges${includeArchived ? '?archived=true' : ''}`,
    );
  }

  /** A cartridge's versions, newest first. */
  async versions(ref: string) {
    return (await this.#http.answer(versionsResponse, 'GET', `${cartridgePath(ref)}/versions`)).versions;
  }

  /** Uploads a `.zip` or `.tar.gz` cartridge archive; validation problems arrive as an ApiFailure with `problems`. */
  upload(file: Blob, fileName: string, name = cartridgeNameOf(fileName)) {
    const { card, type } = uploadKind(fileName);
    const query = name && !card ? `?name=${encodeURIComponent(name)}` : '';
    const path = `/v1/cartridges${card ? '/import' : ''}${query}`;
    return this.#http.answer(card ? importResponse : uploadResponse, 'POST', path, { raw: file, type });
  }

  get(ref: string, includeArchived = false) {
    const path = `${cartridgePath(ref)}${includeArchived ? '?archived=true' : ''}`;
    return this.#http.answer(cartridgeDetailResponse, 'GET', path);
  }

  async update(ref: string, patch: MetadataPatch) {
    return (await this.#http.answer(libraryCartridgeResponse, 'PATCH', cartridgePath(ref), { json: patch }))
      .cartridge;
  }

  remove(ref: string): Promise<void> {
    return this.#http.done('DELETE', cartridgePath(ref));
  }

  async setCover(ref: string, image: Blob) {
    const body = { raw: image, type: image.type || 'application/octet-stream' };
    return (await this.#http.answer(libraryCartridgeResponse, 'PUT', `${cartridgePath(ref)}/cover`, body))
      .cartridge;
  }

  removeCover(ref: string): Promise<void> {
    return this.#http.done('DELETE', `${cartridgePath(ref)}/cover`);
  }

  /** The cover as an object URL (an <img> cannot send the API key itself); the caller revokes it. */
  async coverUrl(ref: string): Promise<string> {
    const response = await this.#http.send('GET', `${cartridgePath(ref)}/cover`);
    if (!response.ok) throw failureOf(response.status, undefined);
    return URL.createObjectURL(await response.blob());
  }

  /** Replaces one file and stores the result as a new version; problems arrive as an ApiFailure. */
  putFile(ref: string, file: string, content: Blob | string, options: { tag?: string; notes?: string } = {}) {
    const query = new URLSearchParams();
    if (options.tag) query.set('tag', options.tag);
    if (options.notes) query.set('notes', options.notes);
    const text = query.toString();
    const path = `${cartridgePath(ref)}/files/${encodeURIComponent(file)}${text === '' ? '' : `?${text}`}`;
    return this.#http.answer(uploadResponse, 'PUT', path, {
      raw: content,
      type: 'text/plain; charset=utf-8',
    });
  }

  async updateVersion(id: string, patch: VersionPatch) {
    return (await this.#http.answer(libraryVersionResponse, 'PATCH', versionPath(id), { json: patch }))
      .version;
  }

  deleteVersion(id: string): Promise<void> {
    return this.#http.done('DELETE', versionPath(id));
  }

  /** One page of the player's games, most recently played first; `nextCursor` asks for the next one. */
  sessions(cursor?: string) {
    const path = cursor === undefined ? '/v1/sessions' : `/v1/sessions?cursor=${encodeURIComponent(cursor)}`;
    return this.#http.answer(sessionsResponse, 'GET', path);
  }

  createSession(body: NewSession) {
    return this.#http.answer(createdSessionResponse, 'POST', '/v1/sessions', { json: body });
  }

  deleteSession(id: string): Promise<void> {
    return this.#http.done('DELETE', `/v1/sessions/${encodeURIComponent(id)}`);
  }
}
