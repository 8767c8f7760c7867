// One JSON POST over node:http or node:https, for the OpenAI-compatible client (openai-compatible-model.ts).
// Not `fetch`: Node's fetch reads a response through web streams and a WebAssembly HTTP parser, which
// cost about 1 ms of CPU more than node:http for each streamed answer of ~100 SSE chunks (measured on
// loopback against the tests' fake server) — a turn makes two such calls. Redirects are not followed
// (an OpenAI-compatible endpoint answers where it is asked; a 3xx is an HTTP error like any other), and no
// compression is asked for. Connections are kept alive between calls.

import http from 'node:http';
import https from 'node:https';
import { ModelError } from './errors.ts';

const httpAgent = new http.Agent({ keepAlive: true });
const httpsAgent = new https.Agent({ keepAlive: true });

/** A response whose body is read on demand. */
export interface PostedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: BodyReader;
}

/** Pulls the body of a response: `read()` gives what has arrived, `undefined` at the end. */
export class BodyReader {
  readonly #response: http.IncomingMessage;
  readonly #modelId: string;
  /** Stops the caller's signal from destroying the request. */
  readonly #detach: () => void;
  #ended = false;
  #error: Error | undefined;
  #wake: (() => void) | undefined;

  constructor(response: http.IncomingMessage, modelId: string, detach: () => void) {
    this.#response = response;
    this.#modelId = modelId;
    this.#detach = detach;
    response.on('close', detach);
    const wake = () => {
      const resolve = this.#wake;
      this.#wake = undefined;
      resolve?.();
    };
    response.on('readable', wake);
    response.on('end', () => {
      this.#ended = true;
      detach();
      wake();
    });
    response.on('error', (error) => {
      this.#error ??= this.#lost(error.message, error);
      wake();
    });
    response.on('close', () => {
      if (!this.#ended) this.#error ??= this.#lost('the connection closed before the answer ended');
      wake();
    });
  }

  #lost(detail: string, cause?: Error): ModelError {
    return new ModelError('network', `model ${this.#modelId}: the provider's answer broke off: ${detail}`, {
      modelId: this.#modelId,
      ...(cause === undefined ? {} : { cause }),
    });
  }

  /** The bytes that have arrived (waiting for some), or `undefined` once the body has ended. */
  async read(): Promise<Buffer | undefined> {
    for (;;) {
      const chunk = this.#response.read() as Buffer | null;
      if (chunk !== null) return chunk;
      if (this.#ended) return undefined;
      if (this.#error !== undefined) throw this.#error;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Stops reading: the connection is closed, not reused. */
  cancel(): void {
    this.#response.destroy();
  }

  /**
   * Lets the rest of the body (normally nothing) run out in the background, so the connection can be
   * reused; more than `maxBytes`, or longer than `ms`, and the connection is closed instead.
   */
  drain(maxBytes: number, ms: number): void {
    // The answer is whole: the attempt ending (its signal aborting) must not close a reusable connection.
    this.#detach();
    if (this.#ended) return;
    let bytes = 0;
    const timer = setTimeout(() => this.cancel(), ms);
    timer.unref();
    this.#response.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) this.cancel();
    });
    this.#response.on('close', () => clearTimeout(timer));
    this.#response.resume();
  }
}

/**
 * POSTs `body` to `url`; resolves with the response once its head has arrived. A failure to connect or
 * send is a ModelError of kind `network`; `signal` aborting destroys the request (the caller's retry
 * context says whether that was a timeout or a cancellation).
 */
export function postJson(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  signal: AbortSignal,
  modelId: string,
): Promise<PostedResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const secure = url.protocol === 'https:';
    const request = (secure ? https : http).request(url, {
      method: 'POST',
      agent: secure ? httpsAgent : httpAgent,
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
    });
    // Until the answer is whole an abort destroys the request; after that it has nothing to stop. It is
    // destroyed without an error: the caller's retry context says why (timeout or cancellation), and an
    // error given here would surface on a socket the agent may already hold, with nobody listening.
    const onAbort = () => request.destroy();
    signal.addEventListener('abort', onAbort, { once: true });
    const detach = () => signal.removeEventListener('abort', onAbort);
    request.on('error', (error) => {
      detach();
      reject(
        signal.aborted
          ? error
          : new ModelError('network', `model ${modelId}: cannot reach the provider: ${error.message}`, {
              modelId,
              cause: error,
            }),
      );
    });
    request.on('response', (response) => {
      const flat: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      resolve({
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? '',
        headers: flat,
        body: new BodyReader(response, modelId, detach),
      });
    });
    request.end(body);
  });
}
