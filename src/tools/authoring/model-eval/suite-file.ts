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
import {
  type CompiledRules,
  getNode,
  isPublicEvent,
  mapPairs,
  type NodeSource,
  placeOfNode,
  plainOf,
} from '../../../core/yare/index.ts';
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
  return new SuiteFileReader({ file, lineCounter: parsed.lineCounter }, rules).read(parsed.doc.contents);
}

/** One read of a suite file: every problem is collected (with its place) rather than thrown. */
class SuiteFileReader {
  readonly errors: Diagnostic[] = [];
  readonly #ids = new Set<string>();

  constructor(
    readonly src: NodeSource,
    readonly rules: CompiledRules,
  ) {}

  at(node: unknown): SourcePlace {
    return placeOfNode(this.src, node);
  }

  fail(node: unknown, message: string): undefined {
    this.errors.push({ severity: 'error', code: 'EVAL_BAD_SUITE', message, place: this.at(node) });
    return undefined;
  }

  unknownKeys(map: YAMLMap, known: readonly string[], where: string): void {
    for (const pair of mapPairs(map)) {
      if (!known.includes(pair.key))
        this.fail(pair.pair.key, `${where}: unknown key '${pair.key}' (known: ${known.join(', ')})`);
    }
  }

  read(root: unknown): SuiteParse {
    if (!isMap(root)) {
      this.fail(root, 'a suite file is a mapping with cases: (a list of {input, expect})');
      return { ok: false, errors: this.errors };
    }
    this.unknownKeys(root, ['cases'], 'the suite');
    const list = getNode(root, 'cases');
    if (!isSeq(list)) {
      this.fail(list ?? root, 'cases: must be a list of {input, expect}');
      return { ok: false, errors: this.errors };
    }
    if (list.items.length > MAX_EVAL_CASES) {
      this.fail(
        list.items[MAX_EVAL_CASES],
        `${list.items.length} cases; the limit is ${MAX_EVAL_CASES} (MAX_EVAL_CASES)`,
      );
      return { ok: false, errors: this.errors };
    }
    const cases = list.items.flatMap((node, index) => this.readCase(node, index) ?? []);
    return this.errors.length > 0 ? { ok: false, errors: this.errors } : { ok: true, cases };
  }

  readCase(node: unknown, index: number): EvalCase | undefined {
    const where = `cases[${index}]`;
    if (!isMap(node)) return this.fail(node, `${where}: a case is a mapping with input: and expect:`);
    this.unknownKeys(node, CASE_KEYS, where);
    const input = this.readInput(node, where);
    const expect = this.readExpect(getNode(node, 'expect'), node, where);
    const idNode = getNode(node, 'id');
    const id = idNode === undefined ? `suite:${index + 1}` : String(plainOf(idNode));
    if (this.#ids.has(id)) this.fail(idNode, `${where}.id: '${id}' is used twice`);
    this.#ids.add(id);
    const stateNode = getNode(node, 'state');
    if (stateNode !== undefined && !isMap(stateNode))
      this.fail(stateNode, `${where}.state: a mapping of fields to set`);
    const history = this.readHistory(getNode(node, 'history'), where);
    if (input === undefined || expect === undefined) return undefined;
    return {
      id,
      input,
      expect,
      origin: 'suite',
      place: this.at(node),
      ...(isMap(stateNode) ? { state: plainOf(stateNode) as Record<string, unknown> } : {}),
      ...(history === undefined ? {} : { history }),
    };
  }

  readInput(node: YAMLMap, where: string): string | undefined {
    const inputNode = getNode(node, 'input');
    const input = isScalar(inputNode) && typeof inputNode.value === 'string' ? inputNode.value : undefined;
    if (input === undefined || input.trim() === '')
      return this.fail(inputNode ?? node, `${where}.input: the player's words, as text`);
    if (input.length > MAX_CASE_INPUT_CHARS)
      this.fail(
        inputNode,
        `${where}.input is ${input.length} characters; the limit is ${MAX_CASE_INPUT_CHARS} (MAX_CASE_INPUT_CHARS)`,
      );
    return input;
  }

  readExpect(node: unknown, parent: unknown, where: string): ExpectedChoice | undefined {
    if (!isMap(node))
      return this.fail(node ?? parent, `${where}.expect: a mapping, { event: <name> } or { event: none }`);
    this.unknownKeys(node, EXPECT_KEYS, `${where}.expect`);
    const eventNode = getNode(node, 'event');
    const event = isScalar(eventNode) && typeof eventNode.value === 'string' ? eventNode.value : undefined;
    if (event === undefined)
      return this.fail(eventNode ?? node, `${where}.expect.event: an event name, or none`);
    const inputsNode = getNode(node, 'inputs');
    if (event === NO_EVENT) {
      if (inputsNode !== undefined)
        return this.fail(inputsNode, `${where}.expect.inputs: an expectation of no event takes no inputs`);
      return { kind: 'none' };
    }
    const def = this.rules.events.get(event);
    if (def === undefined) {
      return this.fail(
        eventNode,
        `${where}.expect.event: there is no event '${event}'; events: ${this.rules.eventNames.join(', ')}, or none`,
      );
    }
    if (!isPublicEvent(def))
      return this.fail(eventNode, `${where}.expect.event: '${event}' is not an event a player can ask for`);
    if (inputsNode !== undefined && !isMap(inputsNode))
      return this.fail(inputsNode, `${where}.expect.inputs: a mapping of input names to values`);
    const inputs: Record<string, unknown> = Object.create(null);
    for (const pair of isMap(inputsNode) ? mapPairs(inputsNode) : []) {
      if (!def.inputs.has(pair.key)) {
        this.fail(
          pair.pair.key,
          `${where}.expect.inputs: '${event}' has no input '${pair.key}'; inputs: ${[...def.inputs.keys()].join(', ') || '(none)'}`,
        );
        continue;
      }
      inputs[pair.key] = plainOf(pair.value) ?? null;
    }
    return { kind: 'event', event, inputs };
  }

  readHistory(node: unknown, where: string): EvalCase['history'] {
    if (node === undefined) return undefined;
    if (!isSeq(node)) return this.fail(node, `${where}.history: a list of {role: user|assistant, content}`);
    if (node.items.length > MAX_CASE_HISTORY)
      return this.fail(
        node,
        `${where}.history has ${node.items.length} messages; the limit is ${MAX_CASE_HISTORY} (MAX_CASE_HISTORY)`,
      );
    const out: { role: 'user' | 'assistant'; content: string }[] = [];
    for (const [i, item] of node.items.entries()) {
      const value = plainOf(item) as { role?: unknown; content?: unknown } | undefined;
      const keys = isMap(item) ? mapPairs(item).map((p) => p.key) : [];
      if (
        value === undefined ||
        (value.role !== 'user' && value.role !== 'assistant') ||
        typeof value.content !== 'string' ||
        keys.some((k) => k !== 'role' && k !== 'content')
      ) {
        this.fail(item, `${where}.history[${i}]: {role: user|assistant, content: text}`);
        continue;
      }
      out.push({ role: value.role, content: value.content });
    }
    return out;
  }
}
