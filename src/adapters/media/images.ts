// A scene pictured (docs/voices.md, "Pictures"): the engine's prompt (src/core/media/picture-prompt.ts) sent to
// an OpenAI-compatible `POST {base}/images/generations`, asking for base64 so no second fetch goes to a URL
// the provider names. The answer is bounded, and the image must be a PNG, JPEG or WebP.

import { MediaError, postForBytes } from './bounded-fetch.ts';
import type { HttpProviderConfig } from './config.ts';

export const DEFAULT_MAX_IMAGE_BYTES = 4 * 1024 * 1024;
export const DEFAULT_IMAGE_TIMEOUT_MS = 120_000;

export interface Picture {
  readonly mime: 'image/png' | 'image/jpeg' | 'image/webp';
  readonly bytes: Buffer;
}

export interface PictureOptions {
  readonly size?: string;
  /** Bytes of image at most (the base64 answer may be a third larger). */
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export function imageMime(bytes: Buffer): Picture['mime'] | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP')
    return 'image/webp';
  return undefined;
}

export async function generatePicture(
  config: HttpProviderConfig,
  prompt: string,
  options: PictureOptions = {},
): Promise<Picture> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  const answer = await postForBytes({
    what: 'images',
    url: `${config.baseUrl}/images/generations`,
    ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
    body: {
      model: config.model,
      prompt,
      n: 1,
      size: options.size ?? '1024x1024',
      response_format: 'b64_json',
    },
    maxBytes: Math.ceil((maxBytes * 4) / 3) + 4096,
    timeoutMs: options.timeoutMs ?? DEFAULT_IMAGE_TIMEOUT_MS,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let b64: unknown;
  try {
    b64 = (JSON.parse(answer.bytes.toString('utf8')) as { data?: Array<{ b64_json?: unknown }> }).data?.[0]
      ?.b64_json;
  } catch {
    throw new MediaError('bad_answer', 'images provider answered with something other than JSON');
  }
  if (typeof b64 !== 'string')
    throw new MediaError('bad_answer', 'images provider answer has no data[0].b64_json');
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length > maxBytes)
    throw new MediaError('too_large', `image of ${bytes.length} bytes is over ${maxBytes}`);
  const mime = imageMime(bytes);
  if (mime === undefined)
    throw new MediaError('bad_answer', 'images provider answer is not a PNG, JPEG or WebP image');
  return { mime, bytes };
}
