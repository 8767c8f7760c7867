// The language server's connection over a byte stream (stdio), read through the checked framing of
// framing.ts: a bad frame is answered with a JSON-RPC error (id null: its id cannot be trusted) and the
// server goes on serving the next one.

import {
  AbstractMessageReader,
  type Connection,
  createConnection,
  type DataCallback,
  type Disposable,
  type Message,
  ProposedFeatures,
  type ResponseMessage,
  StreamMessageWriter,
} from 'vscode-languageserver/node.js';
import { type Frame, FrameReader, INVALID_REQUEST } from './framing.ts';

class CheckedMessageReader extends AbstractMessageReader {
  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly onBadFrame: (frame: Extract<Frame, { kind: 'bad' }>) => void,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const frames = new FrameReader();
    const onData = (chunk: Buffer | string) => {
      for (const frame of frames.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
        if (frame.kind === 'bad') this.onBadFrame(frame);
        else if (typeof frame.message !== 'object' || frame.message === null || Array.isArray(frame.message))
          this.onBadFrame({
            kind: 'bad',
            code: INVALID_REQUEST,
            reason: 'a message that is not a JSON object',
          });
        else callback(frame.message as Message);
      }
    };
    const onEnd = () => this.fireClose();
    const onError = (error: Error) => this.fireError(error);
    this.input.on('data', onData);
    this.input.on('end', onEnd);
    this.input.on('error', onError);
    return {
      dispose: () => {
        this.input.off('data', onData);
        this.input.off('end', onEnd);
        this.input.off('error', onError);
      },
    };
  }
}

/** A language-server connection on `input`/`output` whose framing is checked (framing.ts). */
export function checkedConnection(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Connection {
  const writer = new StreamMessageWriter(output);
  const reader = new CheckedMessageReader(input, (frame) => {
    const reply: ResponseMessage = {
      jsonrpc: '2.0',
      id: null,
      error: { code: frame.code, message: `bad message frame: ${frame.reason}` },
    };
    void writer.write(reply);
  });
  return createConnection(ProposedFeatures.all, reader, writer);
}
