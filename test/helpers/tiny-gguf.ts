// A tiny GGUF v3 model for tests: a one-layer llama-architecture network with seeded random weights, a
// byte-level GPT-2 BPE tokenizer (256 byte tokens, a few merges, the ChatML special tokens) and a ChatML
// `tokenizer.chat_template`. About 0.1 MB, written in milliseconds, loadable by llama.cpp (through
// node-llama-cpp), so the local-model path is exercised for real without any downloaded weights.
//
// The weights are random, so the text is noise; one deliberate structure makes grammar-constrained JSON
// terminate: every token embedding carries a constant in dimension 0, which survives the small random
// layers and the RMS norms, and the output rows of a few JSON punctuation tokens (and of `<|im_end|>`)
// have a positive weight there. Under a grammar the model therefore prefers to close strings, objects and
// arrays, so a constrained answer is short and complete; without one it is random bytes that end after
// about a dozen tokens (a median; bench/local-model.ts reports it). Everything else is uniform noise from the seed: the same seed, the same file.
//
// Format: the GGUF specification (ggml's docs/gguf.md): header, metadata key/values, tensor infos, padding
// to `general.alignment`, tensor data (each tensor aligned). Dimensions are listed innermost first.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TinyGgufOptions {
  /** Seeds every weight (default 1). */
  readonly seed?: number;
  readonly embedding?: number;
  readonly layers?: number;
  readonly heads?: number;
  readonly kvHeads?: number;
  readonly feedForward?: number;
  readonly contextLength?: number;
  /** `tokenizer.chat_template`; ChatML by default. */
  readonly chatTemplate?: string;
  /** Key/values written after the model's own (hostile files: huge arrays, lying lengths). */
  readonly extraMetadata?: readonly (readonly [string, GgufValue])[];
  /** The tensor count the header declares, when it is to lie about the tensors that follow. */
  readonly declaredTensors?: number;
  /** Extra vocabulary entries `[text, token type]` after the ChatML ones (3 control, 4 user-defined). */
  readonly extraTokens?: readonly (readonly [string, number])[];
}

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
const GGUF_VERSION = 3;
const ALIGNMENT = 32;
/** GGUF value types (ggml's gguf_type), for hostile values written raw. */
export const GGUF_TYPE = {
  UINT8: 0,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
} as const;
const TYPE = GGUF_TYPE;
const GGML_TYPE_F32 = 0;
const TOKEN_NORMAL = 1;
const TOKEN_CONTROL = 3;

export type GgufValue =
  | { readonly kind: 'u32'; readonly value: number }
  | { readonly kind: 'f32'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'strings'; readonly value: readonly string[] }
  | { readonly kind: 'i32s'; readonly value: readonly number[] }
  /** An array of `count` copies of one string, written in one piece (millions of elements are cheap). */
  | { readonly kind: 'repeated-strings'; readonly value: string; readonly count: number }
  /** A u8 array of `count` zero bytes. */
  | { readonly kind: 'zero-bytes'; readonly count: number }
  /** A value type and its payload as they are: headers that lie about lengths. */
  | { readonly kind: 'raw'; readonly type: number; readonly bytes: Uint8Array };
type Value = GgufValue;

interface Tensor {
  readonly name: string;
  /** Innermost first, as GGUF lists them. */
  readonly dims: readonly number[];
  readonly data: Float32Array;
}

/** GPT-2's byte-to-character table: printable bytes stand for themselves, the others map above U+0100. */
function byteToUnicode(): string[] {
  const direct: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) direct.push(b);
  for (let b = 0xa1; b <= 0xac; b++) direct.push(b);
  for (let b = 0xae; b <= 0xff; b++) direct.push(b);
  const table: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    table[b] = direct.includes(b) ? String.fromCodePoint(b) : String.fromCodePoint(256 + extra++);
  }
  return table;
}

// Merges of common English pieces ("Ġ" is the space byte): enough that the BPE path runs, few enough
// that the vocabulary stays around 300 tokens.
const MERGES: readonly (readonly [string, string])[] = [
  ['t', 'h'],
  ['th', 'e'],
  ['Ġ', 't'],
  ['Ġt', 'he'],
  ['Ġ', 'a'],
  ['i', 'n'],
  ['e', 'r'],
  ['o', 'n'],
  ['a', 'n'],
  ['r', 'e'],
  ['Ġ', 's'],
  ['Ġ', 'o'],
  ['e', 'n'],
  ['o', 'u'],
  ['Ġ', 'w'],
  ['a', 't'],
  ['i', 's'],
  ['Ġ', 'c'],
  ['o', 'r'],
  ['in', 'g'],
];

export const SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'] as const;

function vocabulary(extra: readonly (readonly [string, number])[] = []): {
  tokens: string[];
  types: number[];
  merges: string[];
} {
  const tokens = [...byteToUnicode()];
  const types = tokens.map(() => TOKEN_NORMAL);
  const merges: string[] = [];
  for (const [left, right] of MERGES) {
    merges.push(`${left} ${right}`);
    tokens.push(left + right);
    types.push(TOKEN_NORMAL);
  }
  for (const special of SPECIAL_TOKENS) {
    tokens.push(special);
    types.push(TOKEN_CONTROL);
  }
  for (const [text, type] of extra) {
    tokens.push(text);
    types.push(type);
  }
  return { tokens, types, merges };
}

/** mulberry32: a small seeded generator, enough for test weights. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Output-row weights in dimension 0 (the constant direction): how strongly each token is preferred after
 * any token.
 */
const PREFERENCES: Readonly<Record<string, number>> = {
  '"': 0.5,
  '}': 0.4,
  ']': 0.3,
  '<|im_end|>': 0.3,
};

/**
 * Bigram preferences: the last position's hidden state is mostly its own token's embedding (the layers'
 * weights are small), so a feature dimension set only in one token's embedding shifts the next token's
 * logits. Each entry gets its own dimension (1, 2, …).
 */
const AFTER: readonly { readonly after: string; readonly prefer: Readonly<Record<string, number>> }[] = [
  { after: '[', prefer: { '{': 2 } },
  { after: '}', prefer: { ']': 1.5, '}': 1 } },
  { after: '"', prefer: { '"': -1.5 } },
];

function tensors(
  options: Required<
    Omit<TinyGgufOptions, 'chatTemplate' | 'extraMetadata' | 'declaredTensors' | 'extraTokens'>
  >,
  vocab: readonly string[],
): Tensor[] {
  const next = random(options.seed);
  const noise = (count: number, scale: number): Float32Array => {
    const data = new Float32Array(count);
    for (let i = 0; i < count; i++) data[i] = (next() * 2 - 1) * scale;
    return data;
  };
  const ones = (count: number): Float32Array => new Float32Array(count).fill(1);
  const n = options.embedding;
  const headDim = n / options.heads;
  const kv = headDim * options.kvHeads;
  const ff = options.feedForward;
  const embeddings = noise(n * vocab.length, 0.05);
  const output = noise(n * vocab.length, 0.05);
  for (let t = 0; t < vocab.length; t++) {
    embeddings[t * n] = 1;
    output[t * n] = PREFERENCES[vocab[t]!] ?? 0;
  }
  for (const [index, rule] of AFTER.entries()) {
    const dim = index + 1;
    for (let t = 0; t < vocab.length; t++) {
      embeddings[t * n + dim] = vocab[t] === rule.after ? 1 : 0;
      output[t * n + dim] = rule.prefer[vocab[t]!] ?? 0;
    }
  }
  const list: Tensor[] = [{ name: 'token_embd.weight', dims: [n, vocab.length], data: embeddings }];
  for (let layer = 0; layer < options.layers; layer++) {
    const blk = `blk.${layer}`;
    list.push(
      { name: `${blk}.attn_norm.weight`, dims: [n], data: ones(n) },
      { name: `${blk}.attn_q.weight`, dims: [n, n], data: noise(n * n, 0.1) },
      { name: `${blk}.attn_k.weight`, dims: [n, kv], data: noise(n * kv, 0.1) },
      { name: `${blk}.attn_v.weight`, dims: [n, kv], data: noise(n * kv, 0.1) },
      { name: `${blk}.attn_output.weight`, dims: [n, n], data: noise(n * n, 0.02) },
      { name: `${blk}.ffn_norm.weight`, dims: [n], data: ones(n) },
      { name: `${blk}.ffn_gate.weight`, dims: [n, ff], data: noise(n * ff, 0.1) },
      { name: `${blk}.ffn_up.weight`, dims: [n, ff], data: noise(n * ff, 0.1) },
      { name: `${blk}.ffn_down.weight`, dims: [ff, n], data: noise(ff * n, 0.02) },
    );
  }
  list.push(
    { name: 'output_norm.weight', dims: [n], data: ones(n) },
    { name: 'output.weight', dims: [n, vocab.length], data: output },
  );
  return list;
}

class Writer {
  readonly #chunks: Uint8Array[] = [];
  #length = 0;
  get length(): number {
    return this.#length;
  }
  bytes(data: Uint8Array): void {
    this.#chunks.push(data);
    this.#length += data.byteLength;
  }
  u32(value: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, value, true);
    this.bytes(b);
  }
  i32(value: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, value, true);
    this.bytes(b);
  }
  u64(value: number): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(value), true);
    this.bytes(b);
  }
  f32(value: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.bytes(b);
  }
  string(value: string): void {
    const encoded = new TextEncoder().encode(value);
    this.u64(encoded.byteLength);
    this.bytes(encoded);
  }
  pad(): void {
    const rest = (ALIGNMENT - (this.#length % ALIGNMENT)) % ALIGNMENT;
    if (rest > 0) this.bytes(new Uint8Array(rest));
  }
  value(value: Value): void {
    switch (value.kind) {
      case 'u32':
        this.u32(TYPE.UINT32);
        this.u32(value.value);
        return;
      case 'f32':
        this.u32(TYPE.FLOAT32);
        this.f32(value.value);
        return;
      case 'string':
        this.u32(TYPE.STRING);
        this.string(value.value);
        return;
      case 'strings':
        this.u32(TYPE.ARRAY);
        this.u32(TYPE.STRING);
        this.u64(value.value.length);
        for (const item of value.value) this.string(item);
        return;
      case 'i32s':
        this.u32(TYPE.ARRAY);
        this.u32(TYPE.INT32);
        this.u64(value.value.length);
        for (const item of value.value) this.i32(item);
        return;
      case 'repeated-strings': {
        this.u32(TYPE.ARRAY);
        this.u32(TYPE.STRING);
        this.u64(value.count);
        const text = new TextEncoder().encode(value.value);
        const one = 8 + text.byteLength;
        const all = new Uint8Array(one * value.count);
        const view = new DataView(all.buffer);
        for (let i = 0; i < value.count; i++) {
          view.setBigUint64(i * one, BigInt(text.byteLength), true);
          all.set(text, i * one + 8);
        }
        this.bytes(all);
        return;
      }
      case 'zero-bytes':
        this.u32(TYPE.ARRAY);
        this.u32(TYPE.UINT8);
        this.u64(value.count);
        this.bytes(new Uint8Array(value.count));
        return;
      case 'raw':
        this.u32(value.type);
        this.bytes(value.bytes);
        return;
      default: {
        const unreachable: never = value;
        throw new Error(`unknown value ${JSON.stringify(unreachable)}`);
      }
    }
  }
  result(): Uint8Array {
    const out = new Uint8Array(this.#length);
    let at = 0;
    for (const chunk of this.#chunks) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    return out;
  }
}

/** The bytes of a tiny GGUF model. */
export function tinyGguf(options: TinyGgufOptions = {}): Uint8Array {
  const o = {
    seed: options.seed ?? 1,
    embedding: options.embedding ?? 32,
    layers: options.layers ?? 1,
    heads: options.heads ?? 4,
    kvHeads: options.kvHeads ?? 2,
    feedForward: options.feedForward ?? 64,
    contextLength: options.contextLength ?? 8192,
  };
  if (o.embedding % o.heads !== 0 || o.heads % o.kvHeads !== 0)
    throw new RangeError('embedding must divide by heads, and heads by kvHeads');
  const vocab = vocabulary(options.extraTokens);
  const special = (text: string): number => vocab.tokens.indexOf(text);
  const metadata: (readonly [string, Value])[] = [
    ['general.architecture', { kind: 'string', value: 'llama' }],
    ['general.name', { kind: 'string', value: `tiny-test-llama-seed-${o.seed}` }],
    ['general.alignment', { kind: 'u32', value: ALIGNMENT }],
    ['llama.context_length', { kind: 'u32', value: o.contextLength }],
    ['llama.embedding_length', { kind: 'u32', value: o.embedding }],
    ['llama.block_count', { kind: 'u32', value: o.layers }],
    ['llama.feed_forward_length', { kind: 'u32', value: o.feedForward }],
    ['llama.attention.head_count', { kind: 'u32', value: o.heads }],
    ['llama.attention.head_count_kv', { kind: 'u32', value: o.kvHeads }],
    ['llama.rope.dimension_count', { kind: 'u32', value: o.embedding / o.heads }],
    ['llama.rope.freq_base', { kind: 'f32', value: 10000 }],
    ['llama.attention.layer_norm_rms_epsilon', { kind: 'f32', value: 1e-5 }],
    ['llama.vocab_size', { kind: 'u32', value: vocab.tokens.length }],
    ['tokenizer.ggml.model', { kind: 'string', value: 'gpt2' }],
    ['tokenizer.ggml.pre', { kind: 'string', value: 'gpt-2' }],
    ['tokenizer.ggml.tokens', { kind: 'strings', value: vocab.tokens }],
    ['tokenizer.ggml.token_type', { kind: 'i32s', value: vocab.types }],
    ['tokenizer.ggml.merges', { kind: 'strings', value: vocab.merges }],
    ['tokenizer.ggml.bos_token_id', { kind: 'u32', value: special('<|endoftext|>') }],
    ['tokenizer.ggml.eos_token_id', { kind: 'u32', value: special('<|im_end|>') }],
    ['tokenizer.ggml.padding_token_id', { kind: 'u32', value: special('<|endoftext|>') }],
    ['tokenizer.chat_template', { kind: 'string', value: options.chatTemplate ?? CHATML_TEMPLATE }],
    ...(options.extraMetadata ?? []),
  ];
  const list = tensors(o, vocab.tokens);
  const w = new Writer();
  w.u32(GGUF_MAGIC);
  w.u32(GGUF_VERSION);
  w.u64(options.declaredTensors ?? list.length);
  w.u64(metadata.length);
  for (const [key, value] of metadata) {
    w.string(key);
    w.value(value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of list) {
    offsets.push(offset);
    offset += Math.ceil(tensor.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  for (const [index, tensor] of list.entries()) {
    w.string(tensor.name);
    w.u32(tensor.dims.length);
    for (const dim of tensor.dims) w.u64(dim);
    w.u32(GGML_TYPE_F32);
    w.u64(offsets[index]!);
  }
  w.pad();
  for (const tensor of list) {
    w.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    w.pad();
  }
  return w.result();
}

/** Writes a tiny GGUF into a fresh temporary directory and returns its path (`name`: its file name). */
export function writeTinyGguf(options: TinyGgufOptions = {}, name?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-gguf-'));
  const path = join(dir, name ?? `tiny-seed-${options.seed ?? 1}.gguf`);
  writeFileSync(path, tinyGguf(options));
  return path;
}

/** A u64 as 8 little-endian bytes (raw values of hostile headers). */
export function u64Bytes(value: number | bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(value), true);
  return b;
}

/**
 * The hostile model files of round four (issue 35), each the tiny model with one lie or bomb in it:
 * - `loopingTemplate`: a chat template that loops 300,000 times on every render;
 * - `hugeArray`: a metadata array of three million strings (past MAX_GGUF_ARRAY_LENGTH);
 * - `lyingTensors`: a header declaring 2^40 tensors.
 */
export const HOSTILE_GGUF = {
  loopingTemplate: (): TinyGgufOptions => ({
    chatTemplate: `{% for i in range(300000) %}{% endfor %}${CHATML_TEMPLATE}`,
  }),
  hugeArray: (count = 3_000_000): TinyGgufOptions => ({
    extraMetadata: [['hostile.strings', { kind: 'repeated-strings', value: 'x', count }]],
  }),
  lyingTensors: (count = 2 ** 40): TinyGgufOptions => ({ declaredTensors: count }),
} as const;

export interface HeaderOnlyGgufOptions {
  /** Default 3. */
  readonly version?: number;
  readonly metadata?: readonly (readonly [string, GgufValue])[];
  /** Tensor infos written (each a one-element F32 tensor at offset 0); default none. */
  readonly tensors?: number;
  /** Names of the tensors, by index (default `t<index>`). */
  readonly tensorName?: (index: number) => string;
  /** Dimensions of every tensor (default [1]). */
  readonly dims?: readonly number[];
  /** The tensor count the header declares (default: `tensors`). */
  readonly declaredTensors?: number;
  /** The key/value count the header declares (default: the metadata given). */
  readonly declaredKeys?: number;
}

/**
 * A GGUF header with no tensor data: the magic, the counts, the key/values and the tensor infos, for the
 * header reader's limits (src/adapters/llm/local-gguf/gguf-header.ts). Not loadable as a model.
 */
export function headerOnlyGguf(options: HeaderOnlyGgufOptions = {}): Uint8Array {
  const metadata = options.metadata ?? [];
  const tensors = options.tensors ?? 0;
  const w = new Writer();
  w.u32(GGUF_MAGIC);
  w.u32(options.version ?? GGUF_VERSION);
  w.u64(options.declaredTensors ?? tensors);
  w.u64(options.declaredKeys ?? metadata.length);
  for (const [key, value] of metadata) {
    w.string(key);
    w.value(value);
  }
  const dims = options.dims ?? [1];
  for (let index = 0; index < tensors; index++) {
    w.string(options.tensorName?.(index) ?? `t${index}`);
    w.u32(dims.length);
    for (const dim of dims) w.u64(dim);
    w.u32(GGML_TYPE_F32);
    w.u64(0);
  }
  return w.result();
}

/**
 * A header whose metadata section is exactly `bytes` long (at least 64 × 27 bytes): 64 arrays of zero bytes,
 * each key/value 27 bytes besides its data, all but the last of 2^20 bytes and the last filling the rest.
 */
export function metadataOfSize(bytes: number): Uint8Array {
  const overhead = 8 + 3 + 4 + 4 + 8;
  const full = Math.min(2 ** 20, Math.floor((bytes - 64 * overhead) / 64));
  const last = bytes - 64 * overhead - 63 * full;
  return headerOnlyGguf({
    metadata: Array.from(
      { length: 64 },
      (_, i) =>
        [`f${String(i).padStart(2, '0')}`, { kind: 'zero-bytes', count: i < 63 ? full : last }] as const,
    ),
  });
}
