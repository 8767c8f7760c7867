// WAV (RIFF PCM) files: read the format and sample bytes of one, and join several of the same format into
// one file, so a turn read by several requests (voices, chunks) is one file to play or save.

export interface WavParts {
  /** The `fmt ` chunk's body, as is (format, channels, rate, bits). */
  readonly format: Buffer;
  readonly samples: Buffer;
}

export class WavError extends Error {}

/** The format and samples of a WAV file; a streamed file's unknown data length (0 or 0xFFFFFFFF) reads to the end. */
export function readWav(bytes: Buffer): WavParts {
  if (
    bytes.length < 12 ||
    bytes.toString('ascii', 0, 4) !== 'RIFF' ||
    bytes.toString('ascii', 8, 12) !== 'WAVE'
  )
    throw new WavError('not a WAV file (no RIFF/WAVE header)');
  let at = 12;
  let format: Buffer | undefined;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'data') {
      if (format === undefined) throw new WavError('WAV data before its format chunk');
      const end =
        size === 0 || size === 0xffffffff || body + size > bytes.length ? bytes.length : body + size;
      return { format, samples: bytes.subarray(body, end) };
    }
    if (id === 'fmt ') format = bytes.subarray(body, body + size);
    at = body + size + (size % 2);
  }
  throw new WavError('WAV file without a data chunk');
}

/** One WAV file of the parts' samples in order; every part must have the same format. */
export function joinWav(parts: readonly WavParts[]): Buffer {
  const first = parts[0];
  if (first === undefined) throw new WavError('no audio to join');
  for (const part of parts)
    if (!part.format.equals(first.format)) throw new WavError('the pieces of audio have different formats');
  const samples = Buffer.concat(parts.map((p) => p.samples));
  const header = Buffer.alloc(12 + 8 + first.format.length + 8);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(header.length - 8 + samples.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(first.format.length, 16);
  first.format.copy(header, 20);
  const data = 20 + first.format.length;
  header.write('data', data, 'ascii');
  header.writeUInt32LE(samples.length, data + 4);
  return Buffer.concat([header, samples]);
}
