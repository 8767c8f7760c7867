// Our own reader of a GGUF file's header (the format ggml's repository documents in its gguf.md: magic,
// version, tensor and key/value counts, the metadata key/values, the tensor infos), run before
// node-llama-cpp or llama.cpp see the file.
// Both of them read every claim of the header as it stands: a file that says it holds 2^40 tensors, or an
// array of three million strings, makes them allocate for it (1.15 GB before llama.cpp gave up; 602 MB
// and 2.6 s in node-llama-cpp's JavaScript reader). Here every count and length is checked against its
// limit, and against the bytes the file really has, *before* anything is read or allocated for it; a
// refusal names the file, the key (or tensor) and the limit. Only what the engine needs is kept: the
// chat template, the architecture and the vocabulary's token texts and types (special-tokens.ts).
//
// Runs inside the model host (host-child.ts), never on the server's event loop: reading 64 MiB of
// metadata is still a few hundred milliseconds of work.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Tensors a file may declare (a 405B model has about 1,100; a large mixture of experts under 2,000). */
export const MAX_GGUF_TENSORS = 65_536;
/** Metadata key/value pairs (real files have 30 to 60). */
export const MAX_GGUF_METADATA_KEYS = 4_096;
/** Bytes of one metadata key's name. */
export const MAX_GGUF_KEY_BYTES = 1_024;
/** Bytes of one string value (some older files embed a whole tokenizer.json of several MiB). */
export const MAX_GGUF_STRING_BYTES = 16 * 1024 ** 2;
/** Elements of one array (the largest vocabularies, 262,144 tokens, with room to spare). */
export const MAX_GGUF_ARRAY_LENGTH = 1_048_576;
/** Bytes of the whole metadata section (a 262,144-token vocabulary with its merges is about 10 MiB). */
export const MAX_GGUF_METADATA_BYTES = 64 * 1024 ** 2;
/** Bytes of `tokenizer.chat_template` (real templates are under 20 KiB). */
export const MAX_CHAT_TEMPLATE_BYTES = 256 * 1024;
/** Bytes of a tensor's name: ggml's GGML_MAX_NAME (64) less the NUL that ends it in llama.cpp's buffer. */
export const MAX_TENSOR_NAME_BYTES = 63;
/** Dimensions of a tensor: ggml's GGML_MAX_DIMS. */
export const MAX_TENSOR_DIMS = 4;

export interface GgufLimits {
  readonly maxTensors: number;
  readonly maxMetadataKeys: number;
  readonly maxKeyBytes: number;
  readonly maxStringBytes: number;
  readonly maxArrayLength: number;
  readonly maxMetadataBytes: number;
  readonly maxChatTemplateBytes: number;
}

export const GGUF_LIMITS: GgufLimits = {
  maxTensors: MAX_GGUF_TENSORS,
  maxMetadataKeys: MAX_GGUF_METADATA_KEYS,
  maxKeyBytes: MAX_GGUF_KEY_BYTES,
  maxStringBytes: MAX_GGUF_STRING_BYTES,
  maxArrayLength: MAX_GGUF_ARRAY_LENGTH,
  maxMetadataBytes: MAX_GGUF_METADATA_BYTES,
  maxChatTemplateBytes: MAX_CHAT_TEMPLATE_BYTES,
};

/** The names the limits go by in messages and docs. */
const LIMIT_NAMES: Readonly<Record<keyof GgufLimits, string>> = {
  maxTensors: 'MAX_GGUF_TENSORS',
  maxMetadataKeys: 'MAX_GGUF_METADATA_KEYS',
  maxKeyBytes: 'MAX_GGUF_KEY_BYTES',
  maxStringBytes: 'MAX_GGUF_STRING_BYTES',
  maxArrayLength: 'MAX_GGUF_ARRAY_LENGTH',
  maxMetadataBytes: 'MAX_GGUF_METADATA_BYTES',
  maxChatTemplateBytes: 'MAX_CHAT_TEMPLATE_BYTES',
};

/** GGUF value types (ggml's gguf_type). */
const TYPE = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;

const FIXED_SIZE: ReadonlyMap<number, number> = new Map([
  [TYPE.UINT8, 1],
  [TYPE.INT8, 1],
  [TYPE.BOOL, 1],
  [TYPE.UINT16, 2],
  [TYPE.INT16, 2],
  [TYPE.UINT32, 4],
  [TYPE.INT32, 4],
  [TYPE.FLOAT32, 4],
  [TYPE.UINT64, 8],
  [TYPE.INT64, 8],
  [TYPE.FLOAT64, 8],
]);

/** Magic, version, tensor count, key/value count. */
export const GGUF_FIXED_HEADER_BYTES = 24;
/** The smallest tensor info: an 8-byte name length (and no name), n_dims, one dimension, type, offset. */
const MIN_TENSOR_INFO_BYTES = 8 + 4 + 8 + 4 + 8;
/** A string's length prefix: the least an element of a string array takes. */
const STRING_LENGTH_BYTES = 8;

/** Keys whose string values are kept; every other value is checked and skipped. */
const KEPT_STRINGS = new Set(['general.architecture', 'general.name', 'tokenizer.chat_template']);
const TOKENS_KEY = 'tokenizer.ggml.tokens';
const TOKEN_TYPES_KEY = 'tokenizer.ggml.token_type';
const CHAT_TEMPLATE_KEY = 'tokenizer.chat_template';

export interface GgufHeader {
  readonly version: number;
  readonly tensorCount: number;
  readonly metadataKeys: number;
  /** Bytes of the metadata section (after the fixed header, before the tensor infos). */
  readonly metadataBytes: number;
  readonly architecture?: string;
  readonly name?: string;
  readonly chatTemplate?: string;
  /** `tokenizer.ggml.tokens`: each token's text. */
  readonly tokens?: readonly string[];
  /** `tokenizer.ggml.token_type`: llama.cpp's token types (1 normal, 3 control, 4 user-defined, …). */
  readonly tokenTypes?: Int32Array;
}

/** A refusal of the header: where in the file (the key or tensor, the byte offset) and why. */
export class GgufHeaderError extends Error {
  override readonly name = 'GgufHeaderError';
  constructor(
    message: string,
    /** The metadata key (or `tensor N`) being read, when the problem is inside one. */
    readonly where: string | undefined,
    /** The byte of the file the problem is at, when it is at one. */
    readonly offset: number | undefined,
  ) {
    super(message);
  }
}

/** Random access to a file's bytes (a file descriptor in the model host, an array in tests). */
export interface ByteSource {
  readonly size: number;
  /** `length` bytes from `position`; fewer only at the end of the source. */
  read(position: number, length: number): Uint8Array;
}

export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    read: (position, length) => bytes.subarray(position, Math.min(bytes.byteLength, position + length)),
  };
}

const WINDOW_BYTES = 1024 * 1024;
const utf8 = new TextDecoder('utf-8');

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** A position in the source, read through a window so small values do not cost a system call each. */
class Cursor {
  position = 0;
  #window: Uint8Array = new Uint8Array(0);
  #view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  #windowStart = 0;

  constructor(
    readonly source: ByteSource,
    readonly where: () => string | undefined,
  ) {}

  fail(problem: string, at = this.position): never {
    const where = this.where();
    throw new GgufHeaderError(
      `${where === undefined ? '' : `${where}: `}${problem} (at byte ${count(at)})`,
      where,
      at,
    );
  }

  /** Refuses a read of `n` bytes that would pass the end of the file. */
  need(n: number): void {
    if (n > this.source.size - this.position)
      this.fail(`the file ends ${count(this.source.size - this.position)} bytes in, ${count(n)} are needed`);
  }

  /** The window's offset of the next `n` bytes (n at most WINDOW_BYTES), reading the file when needed. */
  #at(n: number): number {
    this.need(n);
    const start = this.position;
    if (start < this.#windowStart || start + n > this.#windowStart + this.#window.byteLength) {
      this.#window = this.source.read(start, WINDOW_BYTES);
      this.#view = new DataView(this.#window.buffer, this.#window.byteOffset, this.#window.byteLength);
      this.#windowStart = start;
    }
    this.position += n;
    return start - this.#windowStart;
  }

  bytes(n: number): Uint8Array {
    if (n > WINDOW_BYTES) {
      this.need(n);
      const start = this.position;
      this.position += n;
      return this.source.read(start, n);
    }
    const offset = this.#at(n);
    return this.#window.subarray(offset, offset + n);
  }

  skip(n: number): void {
    this.need(n);
    this.position += n;
  }

  u32(): number {
    return this.#view.getUint32(this.#at(4), true);
  }

  /** A u64 that must be a safe integer (every count and length here is checked far below that). */
  u64(): number {
    const at = this.position;
    const offset = this.#at(8);
    const low = this.#view.getUint32(offset, true);
    const high = this.#view.getUint32(offset + 4, true);
    // 2^53 - 1 has 21 bits in the high word.
    if (high > 0x1f_ffff) this.fail(`the value ${(BigInt(high) << 32n) | BigInt(low)} is out of range`, at);
    return high * 2 ** 32 + low;
  }

  i32s(n: number): Int32Array {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.#view.getInt32(this.#at(4), true);
    return out;
  }
}

/** Reads a file's GGUF header within `limits`; throws GgufHeaderError naming the key and the limit. */
export function readGgufHeader(source: ByteSource, limits: GgufLimits = GGUF_LIMITS): GgufHeader {
  return new HeaderReader(source, limits).read();
}

class HeaderReader {
  readonly #limits: GgufLimits;
  readonly #cursor: Cursor;
  #where: string | undefined = 'the header';
  #metadataStart = GGUF_FIXED_HEADER_BYTES;

  constructor(source: ByteSource, limits: GgufLimits) {
    this.#limits = limits;
    this.#cursor = new Cursor(source, () => this.#where);
  }

  #over(limit: keyof GgufLimits, what: string, at?: number): never {
    return this.#cursor.fail(
      `${what}; the limit is ${count(this.#limits[limit])} (${LIMIT_NAMES[limit]})`,
      at,
    );
  }

  /** Refuses reading `n` more metadata bytes past the metadata limit, then past the end of the file. */
  #needMetadata(n: number): void {
    const used = this.#cursor.position - this.#metadataStart;
    if (n > this.#limits.maxMetadataBytes - used)
      this.#over('maxMetadataBytes', `the metadata would pass ${count(used + n)} bytes`);
    this.#cursor.need(n);
  }

  read(): GgufHeader {
    const c = this.#cursor;
    if (c.source.size < GGUF_FIXED_HEADER_BYTES)
      c.fail(`the file is ${count(c.source.size)} bytes, too short for a GGUF header`, 0);
    if (utf8.decode(c.bytes(4)) !== 'GGUF') c.fail('the file does not start with the GGUF magic', 0);
    const versionAt = c.position;
    const version = c.u32();
    if (version !== 2 && version !== 3)
      c.fail(`GGUF version ${version} is not read (versions 2 and 3 are)`, versionAt);
    const tensorsAt = c.position;
    const tensorCount = c.u64();
    if (tensorCount > this.#limits.maxTensors)
      this.#over('maxTensors', `the file declares ${count(tensorCount)} tensors`, tensorsAt);
    const keysAt = c.position;
    const metadataKeys = c.u64();
    if (metadataKeys > this.#limits.maxMetadataKeys)
      this.#over('maxMetadataKeys', `the file declares ${count(metadataKeys)} metadata keys`, keysAt);
    const kept = this.#metadata(metadataKeys);
    const metadataBytes = c.position - this.#metadataStart;
    this.#tensorInfos(tensorCount);
    return { version, tensorCount, metadataKeys, metadataBytes, ...kept };
  }

  #metadata(keys: number): Omit<GgufHeader, 'version' | 'tensorCount' | 'metadataKeys' | 'metadataBytes'> {
    const c = this.#cursor;
    // Every key/value takes at least a key length, a type and one byte of value.
    this.#needMetadata(keys * (STRING_LENGTH_BYTES + 4 + 1));
    const seen = new Set<string>();
    const kept: Record<string, string> = Object.create(null);
    let tokens: string[] | undefined;
    let tokenTypes: Int32Array | undefined;
    for (let index = 0; index < keys; index++) {
      this.#where = `metadata key ${index + 1} of ${count(keys)}`;
      const key = this.#string(this.#limits.maxKeyBytes, 'maxKeyBytes', 'the key', true) as string;
      this.#where = `metadata key ${JSON.stringify(key)}`;
      if (seen.has(key)) c.fail('the key appears twice');
      seen.add(key);
      this.#needMetadata(4);
      const type = c.u32();
      if (type === TYPE.ARRAY) {
        const array = this.#array(key);
        if (key === TOKENS_KEY && Array.isArray(array)) tokens = array;
        if (key === TOKEN_TYPES_KEY && array instanceof Int32Array) tokenTypes = array;
      } else {
        const value = this.#scalar(key, type);
        if (typeof value === 'string') kept[key] = value;
      }
    }
    const template = kept[CHAT_TEMPLATE_KEY];
    return {
      ...(kept['general.architecture'] === undefined ? {} : { architecture: kept['general.architecture'] }),
      ...(kept['general.name'] === undefined ? {} : { name: kept['general.name'] }),
      ...(template === undefined ? {} : { chatTemplate: template }),
      ...(tokens === undefined ? {} : { tokens }),
      ...(tokenTypes === undefined ? {} : { tokenTypes }),
    };
  }

  /** A string value: its length checked before it is read; decoded when `keep`, else skipped. */
  #string(max: number, limit: keyof GgufLimits, what: string, keep: boolean): string | undefined {
    const c = this.#cursor;
    this.#needMetadata(STRING_LENGTH_BYTES);
    const at = c.position;
    const length = c.u64();
    if (length > max) this.#over(limit, `${what} is ${count(length)} bytes`, at);
    this.#needMetadata(length);
    if (!keep) {
      c.skip(length);
      return undefined;
    }
    return utf8.decode(c.bytes(length));
  }

  #scalar(key: string, type: number): string | undefined {
    const c = this.#cursor;
    if (type === TYPE.STRING) {
      const keep = KEPT_STRINGS.has(key);
      return key === CHAT_TEMPLATE_KEY
        ? this.#string(this.#limits.maxChatTemplateBytes, 'maxChatTemplateBytes', 'the chat template', keep)
        : this.#string(this.#limits.maxStringBytes, 'maxStringBytes', 'the string', keep);
    }
    const size = FIXED_SIZE.get(type);
    if (size === undefined) return c.fail(`unknown value type ${type}`, c.position - 4);
    this.#needMetadata(size);
    c.skip(size);
    return undefined;
  }

  /** An array: its element type and length checked (and the bytes they need) before any element is read. */
  #array(key: string): string[] | Int32Array | undefined {
    const c = this.#cursor;
    this.#needMetadata(4 + 8);
    const typeAt = c.position;
    const type = c.u32();
    const lengthAt = c.position;
    const length = c.u64();
    if (type === TYPE.ARRAY) c.fail('an array of arrays (llama.cpp does not read them either)', typeAt);
    if (length > this.#limits.maxArrayLength)
      this.#over('maxArrayLength', `an array of ${count(length)} elements`, lengthAt);
    if (type === TYPE.STRING) {
      // Each string takes at least its length prefix: a lie about the count is refused here.
      this.#needMetadata(length * STRING_LENGTH_BYTES);
      const keep = key === TOKENS_KEY;
      const out: string[] = [];
      for (let i = 0; i < length; i++) {
        const text = this.#string(this.#limits.maxStringBytes, 'maxStringBytes', `element ${i}`, keep);
        if (keep) out.push(text as string);
      }
      return keep ? out : undefined;
    }
    const size = FIXED_SIZE.get(type);
    if (size === undefined) return c.fail(`unknown array element type ${type}`, typeAt);
    this.#needMetadata(length * size);
    if (key === TOKEN_TYPES_KEY && type === TYPE.INT32) return c.i32s(length);
    c.skip(length * size);
    return undefined;
  }

  /** The tensor infos: each name, shape, type and offset within ggml's limits and the file. */
  #tensorInfos(tensors: number): void {
    const c = this.#cursor;
    this.#where = 'the tensor infos';
    const room = Math.floor((c.source.size - c.position) / MIN_TENSOR_INFO_BYTES);
    if (tensors > room)
      c.fail(`the file declares ${count(tensors)} tensors; the bytes left in it hold at most ${count(room)}`);
    for (let index = 0; index < tensors; index++) {
      this.#where = `tensor ${index}`;
      const nameAt = c.position;
      const nameLength = c.u64();
      if (nameLength > MAX_TENSOR_NAME_BYTES)
        c.fail(
          `the name is ${count(nameLength)} bytes; the limit is ${MAX_TENSOR_NAME_BYTES} (MAX_TENSOR_NAME_BYTES)`,
          nameAt,
        );
      this.#where = `tensor ${index} (${JSON.stringify(utf8.decode(c.bytes(nameLength)))})`;
      const dimsAt = c.position;
      const dims = c.u32();
      if (dims < 1 || dims > MAX_TENSOR_DIMS)
        c.fail(`${dims} dimensions; 1 to ${MAX_TENSOR_DIMS} are allowed (MAX_TENSOR_DIMS)`, dimsAt);
      let elements = 1;
      for (let d = 0; d < dims; d++) {
        const dimAt = c.position;
        elements *= c.u64();
        if (!Number.isSafeInteger(elements)) c.fail('the tensor has too many elements', dimAt);
      }
      c.skip(4); // the ggml type: llama.cpp checks it against the types it knows
      const offsetAt = c.position;
      if (c.u64() > c.source.size) c.fail('the data offset is past the end of the file', offsetAt);
    }
  }
}

/** The file at `path` as a ByteSource, and a way to close it. */
export function fileByteSource(path: string): ByteSource & { close(): void } {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  return {
    size,
    read(position, length) {
      const out = new Uint8Array(Math.max(0, Math.min(length, size - position)));
      let done = 0;
      while (done < out.byteLength) {
        const n = readSync(fd, out, done, out.byteLength - done, position + done);
        if (n === 0) break;
        done += n;
      }
      return out.subarray(0, done);
    },
    close: () => closeSync(fd),
  };
}

/** Reads the header of the file at `path` (a GgufHeaderError's message starts with the path). */
export function readGgufHeaderOfFile(path: string, limits: GgufLimits = GGUF_LIMITS): GgufHeader {
  const source = fileByteSource(path);
  try {
    return readGgufHeader(source, limits);
  } catch (error) {
    if (error instanceof GgufHeaderError)
      throw new GgufHeaderError(`${path}: ${error.message}`, error.where, error.offset);
    throw error;
  } finally {
    source.close();
  }
}
