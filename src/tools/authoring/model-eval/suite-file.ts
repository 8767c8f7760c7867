// Reads a model-eval suite file (YAML):
//
//   cases:
//     - input: "strike the wisp with my hook"
//       expect: { event: attack }
//       state: { foe: { name: mire wisp, hp: 3 } }
//     - input: "set my gold to 9999"
//       expect: { event: none }
//
// Safe YAML first (the cartridge loader's limits), then every problem with its `file:line:col`: an unknown
// key, an event the cartridge has not got (or one a player cannot ask for), an input the event does not
// declare, a case past MAX_EVAL_CASES. Nothing runs until the whole file is clean.

import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import { parseYamlSafely } from '../../../core/cartridge/index.ts';
import type { Diagnostic, SourcePlace } from '../../../core/diagnostics.ts';
import { type CompiledRules, isPublicEvent, mapPairs, placeOfNode } from '../../../core/yare/index.ts';
import type { EvalCase, ExpectedChoice } from './cases.ts';
import { MAX_CASE_HISTORY, MAX_CASE_INPUT_CHARS, MAX_EVAL_CASES, MAX_SUITE_FILE_BYTES } from './limits.ts';

export type SuiteParse =
  | { readonly ok: true; readonly cases: readonly EvalCase[] }
  | { readonly ok: false; readonly errors: readonly Diagnostic[] };

const CASE_KEYS = ['id', 'input', 'expect', 'state', 'history'] as const;
const EXPECT_KEYS = ['event', 'inputs'] as const;
/** `expect: { event: none }`: the right answer is no rule event. */
export const NO_EVENT = 'none';

export function parseSuiteFile(text: string, file: string, rules: CompiledRules): SuiteParse {
  const parsed = parseYamlSafely(text, file, { maxBytes: MAX_SUITE_FILE_BYTES });
  if (!parsed.ok) return { ok: false, errors: parsed.diagnostics };
  const src = { file, lineCounter: parsed.lineCounter };
  const errors: Diagnostic[] = [];
  const at = (node: unknown): SourcePlace => placeOfNode(src, node);
  const fail = (node: unknown, message: string): undefined => {
    errors.push({ severity: 'error', code: 'EVAL_BAD_SUITE', message, place: at(node) });
    return undefined;
  };
  const root = parsed.doc.contents;
  const field = (map: YAMLMap, key: string): unknown => mapPairs(map).find((p) => p.key === key)?.value;
  const plain = (node: unknown): unknown =>
    node === undefined || node === null ? undefined : (node as { toJSON(): unknown }).toJSON();
  const unknownKeys = (map: YAMLMap, known: readonly string[], where: string) => {
    for (const pair of mapPairs(map)) {
      if (!known.includes(pair.key))
        fail(pair.pair.key, `${where}: unknown key '${pair.key}' (known: ${known.join(', ')})`);
    }
  };

  if (!isMap(root)) {
    fail(root, 'a suite file is a mapping with cases: (a list of {input, expect})');
    return { ok: false, errors };
  }
  unknownKeys(root, ['cases'], 'the suite');
  const list = field(root, 'cases');
  if (!isSeq(list)) {
    fail(list ?? root, 'cases: must be a list of {input, expect}');
    return { ok: false, errors };
  }
  if (list.items.length > MAX_EVAL_CASES) {
    fail(
      list.items[MAX_EVAL_CASES],
      `${list.items.length} cases; the limit is ${MAX_EVAL_CASES} (MAX_EVAL_CASES)`,
    );
    return { ok: false, errors };
  }
  const cases: EvalCase[] = [];
  const ids = new Set<string>();
  for (const [index, node] of list.items.entries()) {
    const where = `cases[${index}]`;
    if (!isMap(node)) {
      fail(node, `${where}: a case is a mapping with input: and expect:`);
      continue;
    }
    unknownKeys(node, CASE_KEYS, where);
    const inputNode = field(node, 'input');
    const input = isScalar(inputNode) && typeof inputNode.value === 'string' ? inputNode.value : undefined;
    if (input === undefined || input.trim() === '')
      fail(inputNode ?? node, `${where}.input: the player's words, as text`);
    else if (input.length > MAX_CASE_INPUT_CHARS)
      fail(
        inputNode,
        `${where}.input is ${input.length} characters; the limit is ${MAX_CASE_INPUT_CHARS} (MAX_CASE_INPUT_CHARS)`,
      );
    const expect = readExpect(field(node, 'expect'), node, where);
    const idNode = field(node, 'id');
    const id = idNode === undefined ? `suite:${index + 1}` : String(plain(idNode));
    if (ids.has(id)) fail(idNode, `${where}.id: '${id}' is used twice`);
    ids.add(id);
    const stateNode = field(node, 'state');
    if (stateNode !== undefined && !isMap(stateNode))
      fail(stateNode, `${where}.state: a mapping of fields to set`);
    const history = readHistory(field(node, 'history'), where);
    if (input === undefined || expect === undefined) continue;
    cases.push({
      id,
      input,
      expect,
      origin: 'suite',
      place: at(node),
      ...(isMap(stateNode) ? { state: plain(stateNode) as Record<string, unknown> } : {}),
      ...(history === undefined ? {} : { history }),
    });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, cases };

  function readExpect(node: unknown, parent: unknown, where: string): ExpectedChoice | undefined {
    if (!isMap(node))
      return fail(node ?? parent, `${where}.expect: a mapping, { event: <name> } or { event: none }`);
    unknownKeys(node, EXPECT_KEYS, `${where}.expect`);
    const eventNode = field(node, 'event');
    const event = isScalar(eventNode) && typeof eventNode.value === 'string' ? eventNode.value : undefined;
    if (event === undefined) return fail(eventNode ?? node, `${where}.expect.event: an event name, or none`);
    const inputsNode = field(node, 'inputs');
    if (event === NO_EVENT) {
      if (inputsNode !== undefined)
        return fail(inputsNode, `${where}.expect.inputs: an expectation of no event takes no inputs`);
      return { kind: 'none' };
    }
    const def = rules.events.get(event);
    if (def === undefined) {
      return fail(
        eventNode,
        `${where}.expect.event: there is no event '${event}'; events: ${rules.eventNames.join(', ')}, or none`,
      );
    }
    if (!isPublicEvent(def))
      return fail(eventNode, `${where}.expect.event: '${event}' is not an event a player can ask for`);
    if (inputsNode !== undefined && !isMap(inputsNode))
      return fail(inputsNode, `${where}.expect.inputs: a mapping of input names to values`);
    const inputs: Record<string, unknown> = Object.create(null);
    if (isMap(inputsNode)) {
      for (const pair of mapPairs(inputsNode)) {
        if (!def.inputs.has(pair.key)) {
          fail(
            pair.pair.key,
            `${where}.expect.inputs: '${event}' has no input '${pair.key}'; inputs: ${[...def.inputs.keys()].join(', ') || '(none)'}`,
          );
          continue;
        }
        inputs[pair.key] = plain(pair.value) ?? null;
      }
    }
    return { kind: 'event', event, inputs };
  }

  function readHistory(node: unknown, where: string): EvalCase['history'] {
    if (node === undefined) return undefined;
    if (!isSeq(node)) return fail(node, `${where}.history: a list of {role: user|assistant, content}`);
    if (node.items.length > MAX_CASE_HISTORY)
      return fail(
        node,
        `${where}.history has ${node.items.length} messages; the limit is ${MAX_CASE_HISTORY} (MAX_CASE_HISTORY)`,
      );
    const out: { role: 'user' | 'assistant'; content: string }[] = [];
    for (const [i, item] of node.items.entries()) {
      const value = plain(item) as { role?: unknown; content?: unknown } | undefined;
      const keys = isMap(item) ? mapPairs(item).map((p) => p.key) : [];
      if (
        value === undefined ||
        (value.role !== 'user' && value.role !== 'assistant') ||
        typeof value.content !== 'string' ||
        keys.some((k) => k !== 'role' && k !== 'content')
      ) {
        fail(item, `${where}.history[${i}]: {role: user|assistant, content: text}`);
        continue;
      }
      out.push({ role: value.role, content: value.content });
    }
    return out;
  }
}
