// One POST to a media provider (speech, images): JSON in, a body of at most `maxBytes` out, within a time
// limit and the caller's signal. Redirects are not followed (the provider answers where it is asked).

export class MediaError extends Error {
  constructor(
    readonly kind: 'config' | 'network' | 'http' | 'too_large' | 'timeout' | 'cancelled' | 'bad_answer',
    message: string,
  ) {
    super(message);
  }
}

export interface PostOptions {
  readonly url: string;
  readonly apiKey?: string;
  readonly body: unknown;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Names the provider in errors (`speech`, `images`). */
  readonly what: string;
}

export async function postForBytes(options: PostOptions): Promise<{ bytes: Buffer; contentType: string }> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  try {
    const response = await fetch(options.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(options.body),
      redirect: 'manual',
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new MediaError('http', `${options.what} provider answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > options.maxBytes) {
      await response.body?.cancel();
      throw new MediaError(
        'too_large',
        `${options.what} answer of ${declared} bytes is over ${options.maxBytes}`,
      );
    }
    return {
      bytes: await readBounded(response, options),
      contentType: response.headers.get('content-type') ?? '',
    };
  } catch (error) {
    if (error instanceof MediaError) throw error;
    if (options.signal?.aborted) throw new MediaError('cancelled', `${options.what}: cancelled`);
    if (timeout.aborted)
      throw new MediaError('timeout', `${options.what} provider took over ${options.timeoutMs} ms`);
    throw new MediaError('network', `${options.what} provider unreachable: ${(error as Error).message}`);
  }
}

async function readBounded(response: Response, options: PostOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  if (reader === undefined) return Buffer.alloc(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > options.maxBytes) {
      await reader.cancel();
      throw new MediaError('too_large', `${options.what} answer is over ${options.maxBytes} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}
