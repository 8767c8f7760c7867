// intents.yaml: the inputs an intent phrase implies, checked against the rules at load with file:line:col.
import { describe, expect, it } from 'vitest';
import { MAX_INTENT_PHRASE_CHARS, MAX_INTENT_PHRASES } from '../../../src/core/cartridge/index.ts';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { cartridgeFiles, codesOf, errorsOf } from './helpers.ts';

const RULES = `version: "1.0"
events:
  travel:
    intents: ["go to"]
    inputs:
      destination: { type: string, enum: ["Tallow Rest", "brine market"] }
      hurry: { type: bool, default: false }
      steps: { type: int, default: 1 }
      bag: { type: list, default: [] }
    steps:
      - action: note
        message: "to {inputs.destination}"
  secret_door:
    internal: true
    steps: []
`;

function load(intents: string) {
  return loadCartridgeFromFiles(cartridgeFiles({ 'yare.yaml': RULES, 'intents.yaml': intents }), 'c');
}

describe('intents.yaml', () => {
  it('loads the implied inputs in the spelling the rules declare', () => {
    const result = load(
      'travel:\n  "return to the inn": { destination: tallow rest, hurry: true, steps: 3 }\n',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(JSON.parse(JSON.stringify(result.cartridge.intentInputs))).toEqual({
      travel: [
        { phrase: 'return to the inn', inputs: { destination: 'Tallow Rest', hurry: true, steps: 3 } },
      ],
    });
  });

  it('is optional, and an empty file implies nothing', () => {
    const none = loadCartridgeFromFiles(cartridgeFiles({ 'yare.yaml': RULES }), 'c');
    expect(none.ok && Object.keys(none.cartridge.intentInputs)).toEqual([]);
    const empty = load('');
    expect(empty.ok && Object.keys(empty.cartridge.intentInputs)).toEqual([]);
  });

  it('reports every problem with its file:line:col and a stable code', () => {
    const result = load(
      [
        'travel:',
        '  "go home": { destinaton: tallow rest }', // 2: no such input
        '  "go far": { destination: the moon }', // 3: not in the enum
        '  "go fast": { hurry: "yes" }', // 4: wrong type
        '  "go heavy": { bag: [a] }', // 5: a list input cannot be implied
        '  "GO HOME!": { destination: brine market }', // 6: the same phrase again
        'secret_door:', // 7: internal
        '  "knock": {}',
        'nope:', // 9: no such event
        '  "y": {}',
      ].join('\n'),
    );
    const errors = errorsOf(result);
    expect(errors.map((e) => `${e.place?.line}:${e.place?.col} ${e.code}`)).toEqual([
      '2:16 CART_INTENT_INPUT',
      '3:28 CART_INTENT_VALUE',
      '4:23 CART_INTENT_VALUE',
      '5:22 CART_INTENT_VALUE',
      '6:3 CART_INTENT_DUPLICATE',
      '7:1 CART_INTENT_EVENT',
      '9:1 CART_INTENT_EVENT',
    ]);
    expect(errors.every((e) => e.place?.file === 'intents.yaml')).toBe(true);
    expect(errors[0]!.message).toContain(
      "'travel' has no input 'destinaton' (its inputs: destination, hurry, steps, bag)",
    );
    expect(errors[1]!.message).toContain('must be one of: Tallow Rest, brine market');
    expect(errors[5]!.message).toContain('is internal');
  });

  it('refuses a file that is not a mapping of mappings', () => {
    expect(codesOf(errorsOf(load('- travel\n')))).toEqual(['CART_NOT_A_MAPPING']);
    expect(codesOf(errorsOf(load('travel: "go"\n')))).toEqual(['CART_NOT_A_MAPPING']);
    expect(codesOf(errorsOf(load('travel:\n  "go": tallow rest\n')))).toEqual(['CART_NOT_A_MAPPING']);
  });

  it(`takes a phrase of ${MAX_INTENT_PHRASE_CHARS} characters, not one more`, () => {
    const phrase = (n: number) => 'a'.repeat(n);
    expect(load(`travel:\n  "${phrase(MAX_INTENT_PHRASE_CHARS)}": { destination: brine market }\n`).ok).toBe(
      true,
    );
    const past = load(`travel:\n  "${phrase(MAX_INTENT_PHRASE_CHARS + 1)}": { destination: brine market }\n`);
    expect(codesOf(errorsOf(past))).toEqual(['CART_BAD_FIELD']);
    expect(errorsOf(past)[0]!.message).toContain('MAX_INTENT_PHRASE_CHARS');
  });

  it(`takes ${MAX_INTENT_PHRASES} phrases, not one more`, () => {
    const phrases = (n: number) =>
      `travel:\n${Array.from({ length: n }, (_, i) => `  "phrase ${i}": { destination: brine market }`).join('\n')}\n`;
    expect(load(phrases(MAX_INTENT_PHRASES)).ok).toBe(true);
    const past = load(phrases(MAX_INTENT_PHRASES + 1));
    expect(codesOf(errorsOf(past))).toEqual(['CART_BAD_FIELD']);
    expect(errorsOf(past)[0]!.message).toContain('MAX_INTENT_PHRASES');
  });
});
