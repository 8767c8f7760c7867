// The browser's client for library management (docs/api.md, "Library"): a cartridge's metadata,
// visibility, cover, versions with tags and notes, archiving, deleting, and single-file updates. Shapes
// are the server's own view types (`import type`: no server code reaches the bundle).

import type { LibraryCartridgeView, LibraryVersionView } from '../../contract/index.ts';
import { failureOf } from '../lib/errors.ts';
import { ApiHttp, type RequestBody } from '../lib/http.ts';

export type { LibraryCartridgeView, LibraryVersionView };

/** A cartridge as the library lists it: with its newest listed version and how many it lists. */
export type LibraryListItem = LibraryCartridgeView & {
  readonly versionCount: number;
  readonly latest: LibraryVersionView;
};

export interface LibraryList {
  readonly cartridges: readonly LibraryListItem[];
  readonly storage: {
    readonly usedBytes: number;
    readonly quotaBytes: number;
    readonly cartridgeBytes: number;
    readonly coverBytes: number;
    readonly draftBytes: number;
  };
}

export interface CartridgeDetail {
  readonly cartridge: LibraryCartridgeView;
  readonly versions: readonly LibraryVersionView[];
}

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

/** The files a single-file update may replace, in the order the page offers them. */
export const CARTRIDGE_FILE_NAMES = [
  'yare.yaml',
  'bot_lore.md',
  'prompt_directives.yaml',
  'first-message.md',
  'alternate_greetings.json',
  'intents.yaml',
  'world_info.json',
  'yare.js',
  'yare.ts',
] as const;

/** Splits a comma-separated tag field into tags (trimmed, empty ones dropped, each once). */
export function tagsOf(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(',')) {
    const tag = part.trim();
    if (tag !== '' && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/** Bytes as people read them (`12.3 KiB`, `50 MiB`). */
export function byteSize(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown} ${units[unit]}`;
}

/** Version lists read at most to name the games' cartridges (the list may hold many public cartridges). */
export const MAX_VERSION_LOOKUPS = 20;

/**
 * The cartridge title of each game's version: the newest versions come with the list; an older one is
 * looked up in the version lists of the player's own and the server's cartridges first, a few at a time,
 * until every game is named or MAX_VERSION_LOOKUPS lists were read.
 */
export async function namesOfVersions(
  cartridges: readonly LibraryListItem[],
  sessions: readonly { readonly cartridgeVersionId: string }[],
  versions: (cartridgeId: string) => Promise<readonly { readonly id: string }[]>,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const c of cartridges) names.set(c.latest.id, c.title);
  const missing = new Set(sessions.map((s) => s.cartridgeVersionId).filter((id) => !names.has(id)));
  const order = [...cartridges].sort((a, b) => Number(a.owner === 'other') - Number(b.owner === 'other'));
  for (let at = 0; at < Math.min(order.length, MAX_VERSION_LOOKUPS) && missing.size > 0; at += 5) {
    const batch = order.slice(at, Math.min(at + 5, MAX_VERSION_LOOKUPS));
    const lists = await Promise.all(batch.map((c) => versions(c.id).catch(() => [])));
    batch.forEach((c, i) => {
      for (const v of lists[i] ?? []) {
        names.set(v.id, c.title);
        missing.delete(v.id);
      }
    });
  }
  return names;
}

const cartridgePath = (ref: string) => `/v1/cartridges/${encodeURIComponent(ref)}`;

export class LibraryApi {
  readonly #http: ApiHttp;

  constructor(base = '', apiKey: () => string | undefined = () => undefined) {
    this.#http = new ApiHttp(base, apiKey);
  }

  #send(method: string, path: string, body?: RequestBody): Promise<Response> {
    return this.#http.send(method, path, body);
  }

  async #json<T>(method: string, path: string, body?: RequestBody) {
    return (await this.#http.json(method, path, body)) as T;
  }

  list(includeArchived = false): Promise<LibraryList> {
    return this.#json('GET', `/v1/cartridges${includeArchived ? '?archived=true' : ''}`);
  }

  get(ref: string, includeArchived = false): Promise<CartridgeDetail> {
    return this.#json('GET', `${cartridgePath(ref)}${includeArchived ? '?archived=true' : ''}`);
  }

  async update(ref: string, patch: MetadataPatch): Promise<LibraryCartridgeView> {
    return (
      await this.#json<{ cartridge: LibraryCartridgeView }>('PATCH', cartridgePath(ref), { json: patch })
    ).cartridge;
  }

  async remove(ref: string): Promise<void> {
    await this.#json('DELETE', cartridgePath(ref));
  }

  async setCover(ref: string, image: Blob): Promise<LibraryCartridgeView> {
    const type = image.type || 'application/octet-stream';
    return (
      await this.#json<{ cartridge: LibraryCartridgeView }>('PUT', `${cartridgePath(ref)}/cover`, {
        raw: image,
        type,
      })
    ).cartridge;
  }

  async removeCover(ref: string): Promise<void> {
    await this.#json('DELETE', `${cartridgePath(ref)}/cover`);
  }

  /** The cover as an object URL (an <img> cannot send the API key itself); the caller revokes it. */
  async coverUrl(ref: string): Promise<string> {
    const response = await this.#send('GET', `${cartridgePath(ref)}/cover`);
    if (!response.ok) throw failureOf(response.status, undefined);
    return URL.createObjectURL(await response.blob());
  }

  /** Replaces one file and stores the result as a new version; problems arrive as an ApiFailure. */
  putFile(
    ref: string,
    file: string,
    content: Blob | string,
    options: { tag?: string; notes?: string } = {},
  ): Promise<{ version: LibraryVersionView; created: boolean; warnings: unknown[] }> {
    const query = new URLSearchParams();
    if (options.tag) query.set('tag', options.tag);
    if (options.notes) query.set('notes', options.notes);
    const text = query.toString();
    const suffix = text === '' ? '' : `?${text}`;
    return this.#json('PUT', `${cartridgePath(ref)}/files/${encodeURIComponent(file)}${suffix}`, {
      raw: content,
      type: 'text/plain; charset=utf-8',
    });
  }

  async updateVersion(id: string, patch: VersionPatch): Promise<LibraryVersionView> {
    return (
      await this.#json<{ version: LibraryVersionView }>(
        'PATCH',
        `/v1/cartridge-versions/${encodeURIComponent(id)}`,
        {
          json: patch,
        },
      )
    ).version;
  }

  async deleteVersion(id: string): Promise<void> {
    await this.#json('DELETE', `/v1/cartridge-versions/${encodeURIComponent(id)}`);
  }
}
