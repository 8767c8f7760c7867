// The transport every API client of the web client shares (app/, play/, library/, personas/, settings/,
// builder/): the server's address, the API key read at each request (the settings screen may change it),
// and requests whose answer is read through readAnswer (its JSON, or the ApiFailure an error status
// describes) and parsed with the contract's schema (lib/answer.ts).

import type { core } from 'zod/mini';
import { parseAnswer } from './answer.ts';
import { readAnswer } from './errors.ts';

/** A request body: JSON, or raw bytes or text with their content type (archives, covers, single files). */
export type RequestBody = { readonly json: unknown } | { readonly raw: Blob | string; readonly type: string };

export interface SendOptions {
  readonly signal?: AbortSignal | undefined;
  /** Let the request outlive the page (a last save on unload). */
  readonly keepalive?: boolean;
  readonly headers?: Record<string, string>;
}

export class ApiHttp {
  readonly #base: string;
  readonly #key: () => string | undefined;

  constructor(base = '', apiKey: () => string | undefined = () => undefined) {
    this.#base = base;
    this.#key = apiKey;
  }

  /** The address of an API path. */
  url(path: string): string {
    return this.#base + path;
  }

  /** The authorization header (when a key is set) and `extra`. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    const key = this.#key();
    return { ...(key ? { authorization: `Bearer ${key}` } : {}), ...extra };
  }

  /** The response to `method path` with `body`, whatever its status. */
  send(method: string, path: string, body?: RequestBody, options: SendOptions = {}): Promise<Response> {
    const type: Record<string, string> =
      body === undefined ? {} : { 'content-type': 'json' in body ? 'application/json' : body.type };
    const init: RequestInit = { method, headers: this.headers({ ...type, ...options.headers }) };
    if (body !== undefined) init.body = 'json' in body ? JSON.stringify(body.json) : body.raw;
    if (options.signal) init.signal = options.signal;
    if (options.keepalive) init.keepalive = true;
    return fetch(this.url(path), init);
  }

  /** Sends a request whose answer the caller does not read (a delete): only its failure matters. */
  async done(method: string, path: string, body?: RequestBody, options?: SendOptions): Promise<void> {
    await readAnswer(await this.send(method, path, body, options));
  }

  /** The answer to `method path`, parsed with `schema` (a JSON body: `{ json }`). */
  async answer<S extends core.$ZodType>(
    schema: S,
    method: string,
    path: string,
    body?: RequestBody,
    options?: SendOptions,
  ): Promise<core.output<S>> {
    const response = await this.send(method, path, body, options);
    return parseAnswer(schema, await readAnswer(response), `${method} ${path}`, response.status);
  }
}
