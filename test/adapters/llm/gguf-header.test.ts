// The GGUF header reader that runs before node-llama-cpp sees a model file
// (src/adapters/llm/local-gguf/gguf-header.ts): every limit at its value and one past it, the lies of
// round four's hostile files (three million strings, 2^40 tensors) refused at the count, before anything
// is read for them (the refusal's byte offset is the count's own), and the special tokens it finds.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bytesSource,
  GGUF_FIXED_HEADER_BYTES,
  GgufHeaderError,
  MAX_CHAT_TEMPLATE_BYTES,
  MAX_GGUF_ARRAY_LENGTH,
  MAX_GGUF_KEY_BYTES,
  MAX_GGUF_METADATA_BYTES,
  MAX_GGUF_METADATA_KEYS,
  MAX_GGUF_STRING_BYTES,
  MAX_GGUF_TENSORS,
  MAX_TENSOR_DIMS,
  MAX_TENSOR_NAME_BYTES,
  readGgufHeader,
  readGgufHeaderOfFile,
} from '../../../src/adapters/llm/local-gguf/gguf-header.ts';
import {
  MAX_SPECIAL_TOKEN_CHARS,
  MAX_SPECIAL_TOKENS,
  specialTokenTexts,
} from '../../../src/adapters/llm/local-gguf/special-tokens.ts';
import {
  CHATML_TEMPLATE,
  GGUF_TYPE,
  type GgufValue,
  HOSTILE_GGUF,
  headerOnlyGguf,
  metadataOfSize,
  SPECIAL_TOKENS,
  tinyGguf,
  u64Bytes,
  writeTinyGguf,
} from '../../helpers/tiny-gguf.ts';

function refusal(bytes: Uint8Array): GgufHeaderError {
  try {
    readGgufHeader(bytesSource(bytes));
  } catch (error) {
    if (error instanceof GgufHeaderError) return error;
    throw error;
  }
  throw new Error('the header was accepted');
}

const read = (bytes: Uint8Array) => readGgufHeader(bytesSource(bytes));
const meta = (...entries: (readonly [string, GgufValue])[]) => ({ metadata: entries });
const str = (value: string): GgufValue => ({ kind: 'string', value });

describe('the GGUF header reader', () => {
  it('reads the tiny model: version, counts, chat template, vocabulary and its special tokens', () => {
    const header = read(tinyGguf({ seed: 3 }));
    expect(header.version).toBe(3);
    expect(header.tensorCount).toBe(12);
    expect(header.architecture).toBe('llama');
    expect(header.name).toBe('tiny-test-llama-seed-3');
    expect(header.chatTemplate).toBe(CHATML_TEMPLATE);
    expect(header.tokens?.length).toBe(256 + 20 + SPECIAL_TOKENS.length);
    expect(specialTokenTexts(header)).toEqual([...SPECIAL_TOKENS]);
  });

  it('reads a file from disk, and names the file in a refusal', () => {
    const dir = join(writeTinyGguf({ seed: 4 }), '..');
    const good = join(dir, 'good.gguf');
    writeFileSync(good, tinyGguf({ seed: 4 }));
    expect(readGgufHeaderOfFile(good).tensorCount).toBe(12);
    const bad = join(dir, 'bad.gguf');
    writeFileSync(bad, tinyGguf(HOSTILE_GGUF.lyingTensors()));
    expect(() => readGgufHeaderOfFile(bad)).toThrow(
      `${bad}: the header: the file declares 1,099,511,627,776 tensors; the limit is 65,536 (MAX_GGUF_TENSORS) (at byte 8)`,
    );
  });

  it('refuses 2^40 tensors at the count itself, before reading anything for them', () => {
    const error = refusal(tinyGguf(HOSTILE_GGUF.lyingTensors()));
    expect(error.offset).toBe(8);
    expect(error.message).toContain('MAX_GGUF_TENSORS');
  });

  it('takes MAX_GGUF_TENSORS tensors and refuses one more', () => {
    expect(read(headerOnlyGguf({ tensors: MAX_GGUF_TENSORS })).tensorCount).toBe(MAX_GGUF_TENSORS);
    const error = refusal(headerOnlyGguf({ tensors: MAX_GGUF_TENSORS + 1 }));
    expect(error.message).toBe(
      'the header: the file declares 65,537 tensors; the limit is 65,536 (MAX_GGUF_TENSORS) (at byte 8)',
    );
  });

  it('refuses a tensor count under the limit that the file has no room for', () => {
    const error = refusal(tinyGguf({ declaredTensors: 60_000 }));
    expect(error.where).toBe('the tensor infos');
    expect(error.message).toMatch(/declares 60,000 tensors; the bytes left in it hold at most [\d,]+/);
  });

  it('refuses an array of three million strings at its length, naming the key', () => {
    const bytes = tinyGguf(HOSTILE_GGUF.hugeArray());
    const error = refusal(bytes);
    expect(error.where).toBe('metadata key "hostile.strings"');
    expect(error.message).toMatch(
      /^metadata key "hostile\.strings": an array of 3,000,000 elements; the limit is 1,048,576 \(MAX_GGUF_ARRAY_LENGTH\) \(at byte [\d,]+\)$/,
    );
    // The offset is the length field's: no element was read.
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(Number(view.getBigUint64(error.offset!, true))).toBe(3_000_000);
  });

  it('takes an array of MAX_GGUF_ARRAY_LENGTH elements and refuses one more', () => {
    const at = read(tinyGguf(HOSTILE_GGUF.hugeArray(MAX_GGUF_ARRAY_LENGTH)));
    expect(at.tensorCount).toBe(12);
    expect(refusal(tinyGguf(HOSTILE_GGUF.hugeArray(MAX_GGUF_ARRAY_LENGTH + 1))).message).toContain(
      'an array of 1,048,577 elements; the limit is 1,048,576 (MAX_GGUF_ARRAY_LENGTH)',
    );
  });

  it('refuses an array whose count of strings the file cannot hold, before reading them', () => {
    const lie = new Uint8Array(12);
    new DataView(lie.buffer).setUint32(0, GGUF_TYPE.STRING, true);
    lie.set(u64Bytes(1_000_000), 4);
    const error = refusal(headerOnlyGguf(meta(['lie', { kind: 'raw', type: GGUF_TYPE.ARRAY, bytes: lie }])));
    expect(error.message).toMatch(/^metadata key "lie": the file ends \d+ bytes in, 8,000,000 are needed/);
  });

  it('takes MAX_GGUF_METADATA_KEYS keys and refuses one more', () => {
    const keys = (n: number) =>
      headerOnlyGguf({
        metadata: Array.from({ length: n }, (_, i) => [`k${i}`, { kind: 'u32', value: i }] as const),
      });
    expect(read(keys(MAX_GGUF_METADATA_KEYS)).metadataKeys).toBe(MAX_GGUF_METADATA_KEYS);
    expect(refusal(keys(MAX_GGUF_METADATA_KEYS + 1)).message).toBe(
      'the header: the file declares 4,097 metadata keys; the limit is 4,096 (MAX_GGUF_METADATA_KEYS) (at byte 16)',
    );
  });

  it('takes a key of MAX_GGUF_KEY_BYTES bytes and refuses one more', () => {
    expect(read(headerOnlyGguf(meta(['k'.repeat(MAX_GGUF_KEY_BYTES), str('v')]))).metadataKeys).toBe(1);
    expect(refusal(headerOnlyGguf(meta(['k'.repeat(MAX_GGUF_KEY_BYTES + 1), str('v')]))).message).toBe(
      'metadata key 1 of 1: the key is 1,025 bytes; the limit is 1,024 (MAX_GGUF_KEY_BYTES) (at byte 24)',
    );
  });

  it('takes a string of MAX_GGUF_STRING_BYTES bytes and refuses one more, before reading it', () => {
    expect(read(headerOnlyGguf(meta(['s', str('a'.repeat(MAX_GGUF_STRING_BYTES))]))).metadataKeys).toBe(1);
    const error = refusal(headerOnlyGguf(meta(['s', str('a'.repeat(MAX_GGUF_STRING_BYTES + 1))])));
    expect(error.message).toBe(
      'metadata key "s": the string is 16,777,217 bytes; the limit is 16,777,216 (MAX_GGUF_STRING_BYTES) (at byte 37)',
    );
    // A length of 2^40 is refused the same way, with nothing allocated for it.
    const lie = refusal(
      headerOnlyGguf(meta(['s', { kind: 'raw', type: GGUF_TYPE.STRING, bytes: u64Bytes(2 ** 40) }])),
    );
    expect(lie.message).toContain('the string is 1,099,511,627,776 bytes');
  });

  it('takes a chat template of MAX_CHAT_TEMPLATE_BYTES bytes and refuses one more', () => {
    const template = (n: number) => headerOnlyGguf(meta(['tokenizer.chat_template', str('x'.repeat(n))]));
    expect(read(template(MAX_CHAT_TEMPLATE_BYTES)).chatTemplate?.length).toBe(MAX_CHAT_TEMPLATE_BYTES);
    expect(refusal(template(MAX_CHAT_TEMPLATE_BYTES + 1)).message).toContain(
      'metadata key "tokenizer.chat_template": the chat template is 262,145 bytes; the limit is 262,144 (MAX_CHAT_TEMPLATE_BYTES)',
    );
  });

  it('takes MAX_GGUF_METADATA_BYTES of metadata and refuses one byte more', () => {
    const filled = (extra: number) => metadataOfSize(MAX_GGUF_METADATA_BYTES + extra);
    expect(read(filled(0)).metadataBytes).toBe(MAX_GGUF_METADATA_BYTES);
    expect(refusal(filled(1)).message).toMatch(
      /^metadata key "f63": the metadata would pass 67,108,865 bytes; the limit is 67,108,864 \(MAX_GGUF_METADATA_BYTES\)/,
    );
  });

  it('takes a tensor name of MAX_TENSOR_NAME_BYTES bytes and MAX_TENSOR_DIMS dimensions, and refuses more', () => {
    const named = (n: number) => headerOnlyGguf({ tensors: 1, tensorName: () => 'n'.repeat(n) });
    expect(read(named(MAX_TENSOR_NAME_BYTES)).tensorCount).toBe(1);
    expect(refusal(named(MAX_TENSOR_NAME_BYTES + 1)).message).toBe(
      'tensor 0: the name is 64 bytes; the limit is 63 (MAX_TENSOR_NAME_BYTES) (at byte 24)',
    );
    const shaped = (dims: number) => headerOnlyGguf({ tensors: 1, dims: Array(dims).fill(2) });
    expect(read(shaped(MAX_TENSOR_DIMS)).tensorCount).toBe(1);
    expect(refusal(shaped(MAX_TENSOR_DIMS + 1)).message).toContain(
      'tensor 0 ("t0"): 5 dimensions; 1 to 4 are allowed (MAX_TENSOR_DIMS)',
    );
  });

  it('refuses what llama.cpp cannot read: a wrong magic, version 1, nested arrays, unknown types, repeated keys, a cut file', () => {
    const bytes = tinyGguf({ seed: 2 });
    const wrongMagic = bytes.slice();
    wrongMagic[0] = 0x58;
    expect(refusal(wrongMagic).message).toBe(
      'the header: the file does not start with the GGUF magic (at byte 0)',
    );
    expect(refusal(headerOnlyGguf({ version: 1 })).message).toBe(
      'the header: GGUF version 1 is not read (versions 2 and 3 are) (at byte 4)',
    );
    const nested = new Uint8Array(12);
    new DataView(nested.buffer).setUint32(0, GGUF_TYPE.ARRAY, true);
    expect(
      refusal(headerOnlyGguf(meta(['n', { kind: 'raw', type: GGUF_TYPE.ARRAY, bytes: nested }]))).message,
    ).toBe('metadata key "n": an array of arrays (llama.cpp does not read them either) (at byte 37)');
    expect(
      refusal(headerOnlyGguf(meta(['u', { kind: 'raw', type: 13, bytes: new Uint8Array(8) }]))).message,
    ).toBe('metadata key "u": unknown value type 13 (at byte 33)');
    expect(refusal(headerOnlyGguf(meta(['k', str('a')], ['k', str('b')]))).message).toContain(
      'metadata key "k": the key appears twice',
    );
    expect(refusal(bytes.subarray(0, 200)).message).toMatch(/the file ends \d+ bytes in, \d+ are needed/);
    expect(refusal(bytes.subarray(0, GGUF_FIXED_HEADER_BYTES - 1)).message).toBe(
      'the header: the file is 23 bytes, too short for a GGUF header (at byte 0)',
    );
  });
});

describe('special tokens of the vocabulary', () => {
  const withTokens = (extra: readonly (readonly [string, number])[]) =>
    specialTokenTexts(read(tinyGguf({ extraTokens: extra })));

  it('are the CONTROL and USER_DEFINED texts, without repeats and without whitespace-only ones', () => {
    expect(
      withTokens([
        ['<tool_call>', 4],
        ['<|im_start|>', 4],
        ['   ', 4],
        ['\n\n', 3],
        ['plain', 1],
        ['<unk>', 2],
      ]),
    ).toEqual([...SPECIAL_TOKENS, '<tool_call>']);
  });

  it(`take ${MAX_SPECIAL_TOKENS} special tokens and refuse one more`, () => {
    const many = (n: number) =>
      Array.from({ length: n - SPECIAL_TOKENS.length }, (_, i) => [`<s${i}>`, 3] as const);
    expect(withTokens(many(MAX_SPECIAL_TOKENS))).toHaveLength(MAX_SPECIAL_TOKENS);
    expect(() => withTokens(many(MAX_SPECIAL_TOKENS + 1))).toThrow(
      'metadata key "tokenizer.ggml.tokens": the vocabulary has more than 32,768 special tokens (MAX_SPECIAL_TOKENS)',
    );
  });

  it(`take a special token of ${MAX_SPECIAL_TOKEN_CHARS} characters and refuse one more`, () => {
    expect(withTokens([[`<${'a'.repeat(MAX_SPECIAL_TOKEN_CHARS - 2)}>`, 3]])).toHaveLength(4);
    expect(() => withTokens([[`<${'a'.repeat(MAX_SPECIAL_TOKEN_CHARS - 1)}>`, 3]])).toThrow(
      /special token \d+ is 257 characters; the limit is 256 \(MAX_SPECIAL_TOKEN_CHARS\)/,
    );
  });
});
