// Debian's espeak-ng as the offline voice: one process per request, the text on stdin (never as an
// argument, so no text is read as an option), WAV on stdout, killed when the caller cancels or the time is up,
// and its output bounded.

import { spawn, spawnSync } from 'node:child_process';
import { MediaError } from './bounded-fetch.ts';

export const ESPEAK_COMMAND = 'espeak-ng';

/** Whether espeak-ng can be run here (asked once per process). */
let installed: boolean | undefined;
export function espeakInstalled(): boolean {
  installed ??= spawnSync(ESPEAK_COMMAND, ['--version'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  return installed;
}

/** An espeak-ng voice name: letters, digits and `+-_/`, as `en-gb` or `en-us+f3`. */
const VOICE = /^[A-Za-z0-9][A-Za-z0-9+_/-]{0,39}$/;

export interface EspeakRequest {
  readonly text: string;
  readonly voice: string;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export function espeakWav(request: EspeakRequest): Promise<Buffer> {
  if (!VOICE.test(request.voice))
    return Promise.reject(
      new MediaError('config', `espeak-ng voice '${request.voice.slice(0, 60)}' is not a voice name`),
    );
  return new Promise((resolve, reject) => {
    const child = spawn(ESPEAK_COMMAND, ['-v', request.voice, '--stdout', '--stdin'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    let total = 0;
    let failure: MediaError | undefined;
    const stop = (error: MediaError) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => stop(new MediaError('timeout', `espeak-ng took over ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    const onAbort = () => stop(new MediaError('cancelled', 'speech: cancelled'));
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (request.signal?.aborted) onAbort();
    child.stdout.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > request.maxBytes)
        stop(new MediaError('too_large', `espeak-ng output is over ${request.maxBytes} bytes`));
      else chunks.push(chunk);
    });
    child.on('error', (error) => stop(new MediaError('config', `espeak-ng could not run: ${error.message}`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if (failure !== undefined) reject(failure);
      else if (code !== 0) reject(new MediaError('bad_answer', `espeak-ng exited with code ${code}`));
      else resolve(Buffer.concat(chunks));
    });
    child.stdin.on('error', () => {});
    child.stdin.end(request.text);
  });
}
