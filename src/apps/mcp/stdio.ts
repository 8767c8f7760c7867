// `mnesos mcp` over stdio: newline-delimited JSON-RPC on stdin and stdout (the MCP stdio transport), the
// SDK's transport fed through a line bound. A line longer than MAX_STDIO_LINE_BYTES is never held whole:
// its bytes are dropped as they come, and the client gets a JSON-RPC error naming the limit (id null, as
// the request could not be read) while the server goes on with the next line.

import { Transform, type TransformCallback, type Readable, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpContext } from './context.ts';
import { MAX_STDIO_LINE_BYTES } from './limits.ts';
import { createMcpServer } from './server.ts';

const NEWLINE = 0x0a;

/** JSON-RPC's "Invalid Request": the line was not read, so there is no id to answer. */
export function overlongLineError(maxBytes: number): string {
  return `${JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32600,
      message: `a JSON-RPC line over ${maxBytes} bytes was refused unread (MAX_STDIO_LINE_BYTES)`,
    },
  })}\n`;
}

/** Passes whole lines through; drops each line longer than `maxBytes` and calls `onOverlong` once for it. */
export class LineBound extends Transform {
  readonly #maxBytes: number;
  readonly #onOverlong: () => void;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #dropping = false;

  constructor(maxBytes: number, onOverlong: () => void) {
    super();
    this.#maxBytes = maxBytes;
    this.#onOverlong = onOverlong;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end + 1);
      this.#take(piece, end !== -1);
      start += piece.length;
    }
    done();
  }

  /** One piece of the current line; `ends` when it holds the line's newline. */
  #take(piece: Buffer, ends: boolean): void {
    if (!this.#dropping) {
      // The newline itself does not count towards the line's length.
      const bytes = this.#pendingBytes + piece.length - (ends ? 1 : 0);
      if (bytes > this.#maxBytes) {
        this.#dropping = true;
        this.#pending = [];
        this.#pendingBytes = 0;
        this.#onOverlong();
      } else {
        this.#pending.push(piece);
        this.#pendingBytes += piece.length;
      }
    }
    if (!ends) return;
    if (!this.#dropping) this.push(Buffer.concat(this.#pending));
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#dropping = false;
  }
}

export interface StdioStreams {
  readonly input: Readable;
  readonly output: Writable;
}

type Message = Parameters<NonNullable<StdioServerTransport['onmessage']>>[0];

/**
 * Counts the requests read and not yet answered, so that a client that closes its input right after its
 * last request (a pipe, a script) still gets every answer before the server closes.
 */
function trackRequests(transport: StdioServerTransport): { settled: () => Promise<void> } {
  let open = 0;
  let wake: (() => void) | undefined;
  const received = transport.onmessage;
  transport.onmessage = (...args: Parameters<NonNullable<StdioServerTransport['onmessage']>>) => {
    const message: Message = args[0];
    if ('method' in message && 'id' in message) open++;
    received?.(...args);
  };
  const send = transport.send.bind(transport);
  transport.send = async (...args: Parameters<StdioServerTransport['send']>) => {
    await send(...args);
    const message: Message = args[0];
    if (!('method' in message) && 'id' in message && --open === 0) wake?.();
  };
  return {
    settled: () =>
      open <= 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            wake = resolve;
          }),
  };
}

/** Serves one client on the streams until its input ends and every request read is answered. */
export async function serveMcpOverStdio(
  ctx: McpContext,
  io: StdioStreams,
  maxLineBytes: number = MAX_STDIO_LINE_BYTES,
): Promise<void> {
  const lines = new LineBound(maxLineBytes, () => io.output.write(overlongLineError(maxLineBytes)));
  io.input.pipe(lines);
  const server = createMcpServer(ctx);
  const transport = new StdioServerTransport(lines, io.output);
  const ended = new Promise<void>((resolve) => {
    lines.once('end', resolve);
    lines.once('close', resolve);
  });
  await server.connect(transport);
  const requests = trackRequests(transport);
  await ended;
  await requests.settled();
  await server.close();
}
