// The language server's input framing, checked before anything is parsed: `Content-Length` headers as
// the Language Server Protocol frames JSON-RPC messages, with the header's size, the message's size and its
// JSON nesting bounded. A bad frame is reported (the server answers it with a JSON-RPC error) and the
// reader goes on at the next `Content-Length` header (a bad frame's length cannot be trusted, and an
// oversized body is never waited for), so one bad message never stops or stalls the server.

/** Bytes of one frame's header section. */
export const MAX_LSP_HEADER_BYTES = 8 * 1024;
/** Bytes of one message (a document at the lore cap, 2 MiB, sent whole, with room for JSON escapes). */
export const MAX_LSP_MESSAGE_BYTES = 16 * 1024 * 1024;
/** JSON nesting of one message (the protocol's own messages nest a few levels). */
export const MAX_LSP_JSON_DEPTH = 64;

/** JSON-RPC's error codes for a message that does not parse, or is not a request. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export type Frame =
  | { readonly kind: 'message'; readonly message: unknown }
  | { readonly kind: 'bad'; readonly code: number; readonly reason: string };

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = 'content-length:';

/** Deepest nesting of `[`/`{` in JSON text, strings skipped; stops counting past `limit`. */
export function jsonNesting(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92) i++;
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 || ch === 123) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (ch === 93 || ch === 125) depth--;
  }
  return deepest;
}

/** Splits a byte stream into checked frames. */
export class FrameReader {
  #buffer: Buffer = Buffer.alloc(0);

  /** The frames completed by `chunk`, in order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const headerEnd = this.#buffer.indexOf(HEADER_END);
      // A header section still open counts all the bytes so far: one over the limit is refused either way.
      if ((headerEnd < 0 ? this.#buffer.length : headerEnd) > MAX_LSP_HEADER_BYTES) {
        frames.push({
          kind: 'bad',
          code: INVALID_REQUEST,
          reason: `a header section over ${MAX_LSP_HEADER_BYTES} bytes (MAX_LSP_HEADER_BYTES)`,
        });
        this.#resync(1);
        continue;
      }
      if (headerEnd < 0) break;
      const length = contentLength(this.#buffer.subarray(0, headerEnd).toString('latin1'));
      const bodyStart = headerEnd + HEADER_END.length;
      if (typeof length === 'string') {
        frames.push({ kind: 'bad', code: INVALID_REQUEST, reason: length });
        // No length to trust: the next frame starts at the next Content-Length header.
        this.#resync(bodyStart);
        continue;
      }
      if (length > MAX_LSP_MESSAGE_BYTES) {
        frames.push({
          kind: 'bad',
          code: INVALID_REQUEST,
          reason: `a message of ${length} bytes; the limit is ${MAX_LSP_MESSAGE_BYTES} (MAX_LSP_MESSAGE_BYTES)`,
        });
        // Its body is not waited for (it may never come): the next frame starts at the next header.
        this.#resync(bodyStart);
        continue;
      }
      if (this.#buffer.length < bodyStart + length) break;
      const body = this.#buffer.subarray(bodyStart, bodyStart + length).toString('utf8');
      this.#buffer = this.#buffer.subarray(bodyStart + length);
      frames.push(parseBody(body));
    }
    return frames;
  }

  /**
   * Drops bytes up to the next `Content-Length` header at or after `from`; with none, keeps only an end
   * that may be the start of one.
   */
  #resync(from: number): void {
    const rest = this.#buffer.subarray(from);
    const text = rest.toString('latin1').toLowerCase();
    const at = text.indexOf(CONTENT_LENGTH);
    if (at >= 0) {
      this.#buffer = rest.subarray(at);
      return;
    }
    let keep = Math.min(CONTENT_LENGTH.length - 1, text.length);
    while (keep > 0 && !CONTENT_LENGTH.startsWith(text.slice(text.length - keep))) keep--;
    this.#buffer = rest.subarray(rest.length - keep);
  }
}

/** The header's Content-Length, or why it is not usable. */
function contentLength(header: string): number | string {
  let found: string | undefined;
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    if (line.slice(0, colon).trim().toLowerCase() === 'content-length') found = line.slice(colon + 1).trim();
  }
  if (found === undefined) return 'a frame without a Content-Length header';
  if (!/^\d{1,15}$/.test(found))
    return `a Content-Length that is not a byte count: ${JSON.stringify(found.slice(0, 40))}`;
  return Number(found);
}

function parseBody(body: string): Frame {
  const depth = jsonNesting(body, MAX_LSP_JSON_DEPTH);
  if (depth > MAX_LSP_JSON_DEPTH)
    return {
      kind: 'bad',
      code: INVALID_REQUEST,
      reason: `a message nested over ${MAX_LSP_JSON_DEPTH} levels (MAX_LSP_JSON_DEPTH)`,
    };
  try {
    return { kind: 'message', message: JSON.parse(body) };
  } catch (error) {
    return {
      kind: 'bad',
      code: PARSE_ERROR,
      reason: `a message that is not JSON: ${(error as Error).message}`,
    };
  }
}
