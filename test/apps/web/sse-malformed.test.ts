// A malformed frame on a turn's event stream is an error the player sees, never a frame dropped in silence:
// `jsonData` on one message, and the client's `playTurn` against a real local HTTP server sending one.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiHttp } from '../../../src/apps/web/lib/http.ts';
import { PlayApi, type StreamEvent } from '../../../src/apps/web/play/play-api.ts';
import { jsonData, SseParseError } from '../../../src/apps/web/lib/sse.ts';

describe('jsonData', () => {
  it('parses a message whose data is JSON', () => {
    expect(jsonData({ event: 'phase', data: '{"phase":"director"}', id: '' })).toEqual({ phase: 'director' });
  });

  it('refuses data that is not JSON, naming the event and quoting the start of the data', () => {
    const long = `{"text": "${'x'.repeat(200)}`;
    let caught: unknown;
    try {
      jsonData({ event: 'narration_delta', data: long, id: '' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SseParseError);
    const message = (caught as Error).message;
    expect(message).toMatch(/^event stream: the 'narration_delta' message is not JSON \(/);
    expect(message.endsWith(JSON.stringify(`${long.slice(0, 80)}…`))).toBe(true);
  });
});

describe('playTurn over a stream with a malformed frame', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: start\ndata: {"turnId":"t1","parentId":null}\n\n');
      res.write('event: narration_delta\ndata: {"text": "The lamps\n\n');
      res.end('event: done\ndata: {}\n\n');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });

  it('yields the good events before it, then fails with SseParseError instead of skipping the frame', async () => {
    const api = new PlayApi(new ApiHttp(base));
    const seen: StreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of api.playTurn('s1', { text: 'hello' } as never)) seen.push(event);
    } catch (error) {
      caught = error;
    }
    expect(seen.map((e) => e.event)).toEqual(['start']);
    expect(caught).toBeInstanceOf(SseParseError);
    expect((caught as Error).message).toContain("the 'narration_delta' message is not JSON");
  });
});
