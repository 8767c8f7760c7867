// One JSON POST over node:http or node:https, for the OpenAI-compatible client (openai-compatible-model.ts).
// Not `fetch`: Node's fetch reads a response through web streams and a WebAssembly HTTP parser, which
// cost about 1 ms of CPU more than node:http for each streamed answer of ~100 SSE chunks (measured on
// loopback against the tests' fake server) — a turn makes two such calls. Redirects are not followed
// (an OpenAI-compatible endpoint answers where it is asked; a 3xx is an HTTP error like any other), and no
// compression is asked for. Connections are kept alive between calls.
//
// A kept-alive connection can be closed by the server at its keep-alive timeout just as a call is sent on it:
// the call fails with a reset although the server never saw it. Two guards, neither an opt-in retry: idle
// connections are dropped after MODEL_SOCKET_IDLE_MS (shorter than the servers' usual 5 s), and a call
// whose reused connection is reset before any byte of the answer came back is sent once more on a fresh
// connection (nothing was answered, so nothing is asked twice that was done once).

import http from 'node:http';
import https from 'node:https';
import { ModelError } from './errors.ts';

/**
 * Milliseconds an idle kept-alive connection is kept. Servers close theirs after a few seconds (Node's and
 * uvicorn's 5 s, llama.cpp's server 5 s, gunicorn's 2 s); a turn's calls follow each other within
 * milliseconds, so a shorter wait loses little reuse and avoids most of the race with the server's close.
 */
export const MODEL_SOCKET_IDLE_MS = 1_000;

const httpAgent = new http.Agent({ keepAlive: true, timeout: MODEL_SOCKET_IDLE_MS });
const httpsAgent = new https.Agent({ keepAlive: true, timeout: MODEL_SOCKET_IDLE_MS });

/** How a connection the server closed under a call shows: a reset or a broken pipe. */
const STALE_SOCKET_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE']);

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
 * context says whether that was a timeout or a cancellation). A kept-alive connection the server closed
 * under the call (reset before any byte of the answer) costs one more try on a fresh connection.
 */
export async function postJson(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  signal: AbortSignal,
  modelId: string,
): Promise<PostedResponse> {
  const call: Call = { url, headers, body, signal, modelId };
  try {
    return await attempt(call, 'kept-alive');
  } catch (error) {
    if (!(error instanceof StaleConnection)) throw error;
  }
  return attempt(call, 'fresh');
}

interface Call {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signal: AbortSignal;
  readonly modelId: string;
}

/** A reused connection was reset before any byte of the answer: the server closed it, never taking the call. */
class StaleConnection extends Error {
  override readonly name = 'StaleConnection';
}

/**
 * One try: on the agent's kept-alive connections, or `fresh`, on a connection of its own (Node sends
 * `Connection: close` and keeps nothing), which cannot be stale.
 */
function attempt(call: Call, connection: 'kept-alive' | 'fresh'): Promise<PostedResponse> {
  const { url, signal, modelId } = call;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const secure = url.protocol === 'https:';
    const request = (secure ? https : http).request(url, {
      method: 'POST',
      agent: connection === 'fresh' ? false : secure ? httpsAgent : httpAgent,
      headers: { ...call.headers, 'content-length': Buffer.byteLength(call.body) },
    });
    // Until the answer is whole an abort destroys the request; after that it has nothing to stop. It is
    // destroyed without an error: the caller's retry context says why (timeout or cancellation), and an
    // error given here would surface on a socket the agent may already hold, with nobody listening.
    const onAbort = () => request.destroy();
    signal.addEventListener('abort', onAbort, { once: true });
    const detach = () => signal.removeEventListener('abort', onAbort);
    request.on('error', (error: Error & { code?: string }) => {
      detach();
      // An 'error' before 'response': not a byte of the answer was read.
      if (signal.aborted) reject(error);
      else if (request.reusedSocket && STALE_SOCKET_CODES.has(error.code ?? ''))
        reject(new StaleConnection(error.message, { cause: error }));
      else reject(unreachable(modelId, error));
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
    request.end(call.body);
  });
}

function unreachable(modelId: string, error: Error): ModelError {
  return new ModelError('network', `model ${modelId}: cannot reach the provider: ${error.message}`, {
    modelId,
    cause: error,
  });
}
