// `npm run bench -- speech`: how soon a turn is heard (docs/voices.md, "As the narration streams"). A real
// server (SQLite, loopback HTTP, real SSE) whose Narrator streams eight sentences a piece every 150 ms, and
// the tests' fake OpenAI-compatible speech server. Each run plays a turn over SSE and, as soon as `start`
// names the turn, asks for part 0 of its reading; it records when the narration's first sentence had come
// (the stream event that ended it), when part 0's first audio byte came, and when the turn committed, then
// asks for the whole turn's WAV as a client without streaming speech would (after the commit). Rows: the
// medians, and the ratio of the streamed first audio to the whole-turn first audio, both from the turn's start.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeMedia } from '../test/helpers/fake-media-server.ts';
import { startTestServer, type TestServer } from '../test/apps/web/helpers/server.ts';

const RUNS = 5;
const PIECE_DELAY_MS = 150;
const SENTENCES = Array.from(
  { length: 8 },
  (_, i) => `Sentence ${i + 1} drifts over the water and the lamps. `,
);

interface Run {
  readonly firstSentenceMs: number;
  readonly firstAudioMs: number;
  readonly committedMs: number;
  readonly wholeTurnFirstByteMs: number;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Milliseconds from `since` to the first byte of a GET's body. */
async function firstByte(url: string, since: number): Promise<number> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
  const reader = response.body!.getReader();
  await reader.read();
  const at = performance.now() - since;
  await reader.cancel();
  return at;
}

/** Plays one turn over SSE; calls `onStart(turnId)` at `start`; resolves with the stream's timings. */
async function playStreaming(
  server: TestServer,
  sessionId: string,
  started: number,
  onStart: (turnId: string) => void,
): Promise<{ firstSentenceMs: number; committedMs: number }> {
  const response = await fetch(`${server.url}/v1/sessions/${sessionId}/turns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ input: 'I watch the water' }),
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let narration = '';
  let firstSentenceMs = Number.NaN;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the turn stream ended without a commit');
    buffer += value;
    for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as {
        turnId?: string;
        text?: string;
      } | null;
      if (event === 'start') onStart(data?.turnId ?? '');
      if (event === 'narration') {
        narration += data?.text ?? '';
        if (Number.isNaN(firstSentenceMs) && /[.!?]\s/.test(narration))
          firstSentenceMs = performance.now() - started;
      }
      if (event === 'committed') return { firstSentenceMs, committedMs: performance.now() - started };
      if (event === 'error') throw new Error(`the turn failed: ${block}`);
    }
  }
}

async function oneRun(server: TestServer): Promise<Run> {
  const created = await fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cartridge: 'Lanternmere' }),
  });
  const sessionId = ((await created.json()) as { session: { id: string } }).session.id;
  server.queueTurn({ narration: SENTENCES, delayMs: PIECE_DELAY_MS });
  const started = performance.now();
  let turnId = '';
  let firstAudio: Promise<number> = Promise.resolve(Number.NaN);
  const stream = await playStreaming(server, sessionId, started, (id) => {
    turnId = id;
    firstAudio = firstByte(`${server.url}/v1/sessions/${sessionId}/turns/${id}/speech/0`, started);
  });
  const firstAudioMs = await firstAudio;
  const wholeTurnFirstByteMs = await firstByte(
    `${server.url}/v1/sessions/${sessionId}/turns/${turnId}/speech`,
    started,
  );
  return { ...stream, firstAudioMs, wholeTurnFirstByteMs };
}

export async function benchSpeech(): Promise<Array<Record<string, unknown>>> {
  const fake = await startFakeMedia();
  const staticDir = mkdtempSync(join(tmpdir(), 'mnesos-bench-speech-'));
  const server = await startTestServer(staticDir, {
    media: {
      speech: { kind: 'http', config: { baseUrl: fake.url, model: 'tts-1' } },
      voices: { npcs: new Map() },
    },
  });
  try {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await oneRun(server));
    const firstSentence = median(runs.map((r) => r.firstSentenceMs));
    const firstAudio = median(runs.map((r) => r.firstAudioMs));
    const wholeTurn = median(runs.map((r) => r.wholeTurnFirstByteMs));
    return [
      {
        name: 'first audio while the narration streams (fake speech server)',
        runs: RUNS,
        narrationPieces: SENTENCES.length,
        pieceDelayMs: PIECE_DELAY_MS,
        firstSentenceMs: round(firstSentence),
        firstAudioByteMs: round(firstAudio),
        firstSentenceToFirstAudioMs: round(median(runs.map((r) => r.firstAudioMs - r.firstSentenceMs))),
        committedMs: round(median(runs.map((r) => r.committedMs))),
        wholeTurnFirstAudioByteMs: round(wholeTurn),
        streamedToWholeTurnRatio: Math.round((firstAudio / wholeTurn) * 1000) / 1000,
      },
    ];
  } finally {
    await server.close();
    await fake.close();
    rmSync(staticDir, { recursive: true, force: true });
  }
}
