// A minimal Language Server Protocol client for tests: starts `mnesos lsp --stdio` as an editor would,
// frames JSON-RPC messages with Content-Length headers, and collects the server's notifications.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../apps/cli/helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: protocol messages are read loosely; each test asserts the fields it needs.
export type Json = any;

export class LspClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: Json) => void; reject: (e: Error) => void }>();
  readonly notifications: Json[] = [];
  /** Error responses with id null: the server's answers to frames it could not read. */
  readonly frameErrors: Json[] = [];
  private readonly waiters: Array<{ test: (n: Json) => boolean; resolve: (n: Json) => void }> = [];
  stderr = '';

  constructor(cwd: string) {
    this.child = spawn(process.execPath, [join(ROOT, 'bin', 'mnesos'), 'lsp', '--stdio'], {
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.setEncoding('utf8').on('data', (t: string) => {
      this.stderr += t;
    });
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const length = Number(/Content-Length: (\d+)/i.exec(header)?.[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const body = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8'));
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      if (body.id === null && body.error !== undefined) {
        this.frameErrors.push(body.error);
      } else if (body.id !== undefined && (body.result !== undefined || body.error !== undefined)) {
        const waiting = this.pending.get(body.id);
        this.pending.delete(body.id);
        if (body.error) waiting?.reject(new Error(body.error.message));
        else waiting?.resolve(body.result);
      } else if (body.method !== undefined && body.id === undefined) {
        this.notifications.push(body);
        for (const w of [...this.waiters]) {
          if (w.test(body)) {
            this.waiters.splice(this.waiters.indexOf(w), 1);
            w.resolve(body);
          }
        }
      } else if (body.method !== undefined) {
        // A request from the server (e.g. client/registerCapability): answer with null.
        this.write({ jsonrpc: '2.0', id: body.id, result: null });
      }
    }
  }

  private write(message: Json): void {
    const text = JSON.stringify(message);
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  }

  /** Bytes as they are, framed or not (for hostile input). */
  writeRaw(bytes: string | Buffer): void {
    this.child.stdin.write(bytes);
  }

  /** Whether the server process has exited. */
  get exited(): boolean {
    return this.child.exitCode !== null;
  }

  request(method: string, params: Json): Promise<Json> {
    const id = this.nextId++;
    this.write({ jsonrpc: '2.0', id, method, params });
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  notify(method: string, params: Json): void {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** The next notification matching `test` (or one already received after `since`). */
  waitFor(test: (n: Json) => boolean, since = 0): Promise<Json> {
    const seen = this.notifications.slice(since).find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  async close(): Promise<void> {
    await this.request('shutdown', null);
    this.notify('exit', null);
    await new Promise<void>((resolve) => {
      if (this.child.exitCode !== null) resolve();
      else this.child.on('close', () => resolve());
    });
  }
}
