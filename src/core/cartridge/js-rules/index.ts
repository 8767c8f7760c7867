// Rules written in JavaScript or TypeScript (`yare.js` / `yare.ts`): the module's default export is the
// rules object, exactly what yare.yaml holds. It runs only in the sandbox (QuickJS in WebAssembly, in a
// worker), crosses out as bounded JSON, and is turned into YAML text that the loader compiles like any
// yare.yaml, so both formats have one compiler. Every problem is placed in the author's file: JavaScript
// errors by their line:col (through the source map for TypeScript), compiler findings by the path of the
// value in the rules object.

import { stringify } from 'yaml';
import type { Diagnostic, SourcePlace } from '../../diagnostics.ts';
import { type CartridgeCode, cartError } from '../diagnostics.ts';
import { MAX_YAML_DEPTH } from '../limits.ts';
import {
  MAX_RULES_JSON_CHARS,
  MAX_SANDBOX_MESSAGE_CHARS,
  RULES_SCRIPT_MEMORY_BYTES,
  RULES_SCRIPT_TIME_MS,
} from './limits.ts';
import { formatRulesPath, GeneratedYamlIndex, placeInStack, placeOfRulesPath } from './places.ts';
import {
  DEFAULT_SANDBOX_LIMITS,
  type RulesSandbox,
  type SandboxLimits,
  type SandboxResult,
} from './sandbox-port.ts';

export * from './limits.ts';
export * from './sandbox-port.ts';

export type RulesScriptLanguage = 'js' | 'ts';

export type RulesScriptResult =
  | {
      readonly ok: true;
      /** The rules object as YAML text, for the same parser and compiler as yare.yaml. */
      readonly yaml: string;
      /** The file name to parse `yaml` under; diagnostics placed in it are what `remap` moves. */
      readonly generatedFile: string;
      /** Moves a diagnostic placed in the generated YAML to the author's file (others pass unchanged). */
      readonly remap: (diagnostic: Diagnostic) => Diagnostic;
    }
  | { readonly ok: false; readonly diagnostics: Diagnostic[] };

type ToSource = (line: number, col: number) => { line: number; col: number };

/** The file a rules script came from, and how to place a finding in it. */
interface ScriptFile {
  readonly source: string;
  readonly path: string;
  /** The short, fixed name the sandbox runs it under. */
  readonly sandboxFile: string;
  readonly start: SourcePlace;
  readonly toSource: ToSource;
}

export function rulesFromScript(
  source: string,
  language: RulesScriptLanguage,
  path: string,
  sandbox: RulesSandbox,
  limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
): RulesScriptResult {
  const start: SourcePlace = { file: path, line: 1, col: 1 };
  // The sandbox sees a short, fixed file name, so its stack lines are easy to find and reveal no folder.
  const sandboxFile = language === 'ts' ? 'yare.ts.js' : 'yare.js';
  let code = source;
  let toSource: ToSource = (line, col) => ({ line, col });
  if (language === 'ts') {
    const transpiled = sandbox.transpile(source, 'yare.ts');
    if (!transpiled.ok) {
      return {
        ok: false,
        diagnostics: transpiled.errors.slice(0, 20).map((e) =>
          cartError('CART_RULES_SCRIPT', `TypeScript: ${e.message}`, {
            file: path,
            line: e.line,
            col: e.col,
          }),
        ),
      };
    }
    code = transpiled.code;
    toSource = transpiled.toSource;
  }
  const file: ScriptFile = { source, path, sandboxFile, start, toSource };
  const result = sandbox.run(code, sandboxFile, limits);
  if (result.kind !== 'ok') return runFailure(result, file, limits);
  return rulesOfJson(result.json, file);
}

function failure(code: CartridgeCode, message: string, place: SourcePlace): RulesScriptResult {
  return { ok: false, diagnostics: [cartError(code, message, place)] };
}

/** Why the module gave no rules object: one of the sandbox's limits, or the module's own error. */
function runFailure(
  result: Exclude<SandboxResult, { kind: 'ok' }>,
  file: ScriptFile,
  limits: SandboxLimits,
): RulesScriptResult {
  switch (result.kind) {
    case 'timeout':
      return failure(
        'CART_RULES_SCRIPT_LIMIT',
        `The rules module did not finish within ${result.waitedMs} ms and was stopped (RULES_SCRIPT_TIME_MS is ${RULES_SCRIPT_TIME_MS}, plus SANDBOX_GRACE_MS). Look for a loop that never ends, or a huge nested value.`,
        file.start,
      );
    case 'crashed':
      return failure(
        'CART_RULES_SCRIPT_LIMIT',
        `The rules module broke the sandbox and was stopped (${clip(result.message)}). Look for very deep recursion or a huge allocation.`,
        file.start,
      );
    case 'too-large':
      return failure(
        'CART_RULES_SCRIPT_LIMIT',
        `The rules object is ${result.chars} characters as JSON; the limit is ${limits.maxJsonChars} (MAX_RULES_JSON_CHARS is ${MAX_RULES_JSON_CHARS}).`,
        file.start,
      );
    case 'error': {
      const at = placeInStack(result.stack, file.sandboxFile);
      const place = at ? { file: file.path, ...file.toSource(at.line, at.col) } : file.start;
      const limit = limitMessage(result.message, limits);
      const during = result.phase === 'serialize' ? ' while its default export was converted to JSON' : '';
      if (limit) return failure('CART_RULES_SCRIPT_LIMIT', `The rules module ${limit}${during}.`, place);
      return failure(
        result.phase === 'shape' ? 'CART_RULES_SCRIPT_SHAPE' : 'CART_RULES_SCRIPT',
        `${result.phase === 'shape' ? 'The rules module is not usable: ' : `${clip(result.name)}${during}: `}${clip(result.message)}`,
        place,
      );
    }
    default: {
      const unreachable: never = result;
      throw new Error(`unreachable ${String(unreachable)}`);
    }
  }
}

/** The rules object as YAML text, with the map from places in that text back to the author's file. */
function rulesOfJson(json: string, file: ScriptFile): RulesScriptResult {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return failure('CART_RULES_SCRIPT_SHAPE', 'The rules object did not come out as valid JSON.', file.start);
  }
  const depth = jsonDepth(value);
  if (depth > MAX_YAML_DEPTH) {
    return failure(
      'CART_TOO_DEEP',
      `The rules object nests ${depth} levels deep; the limit is ${MAX_YAML_DEPTH} (MAX_YAML_DEPTH), as for yare.yaml.`,
      file.start,
    );
  }
  const yaml = stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
  const generatedFile = `${file.path}.generated.yaml`;
  let index: GeneratedYamlIndex | undefined;
  const remap = (diagnostic: Diagnostic): Diagnostic => {
    if (diagnostic.place?.file !== generatedFile) return diagnostic;
    index ??= new GeneratedYamlIndex(yaml);
    const rulesPath = index.pathAt(diagnostic.place.line, diagnostic.place.col);
    const written = placeOfRulesPath(file.source, rulesPath);
    return {
      ...diagnostic,
      message: `${diagnostic.message} (in the rules object at ${formatRulesPath(rulesPath)})`,
      place: { file: file.path, line: written?.line ?? 1, col: written?.col ?? 1 },
    };
  };
  return { ok: true, yaml, generatedFile, remap };
}

/** A sandbox error that is one of the limits, said plainly; undefined for the module's own errors. */
function limitMessage(raw: string, limits: SandboxLimits): string | undefined {
  // An error rethrown through a getter or toJSON arrives as its text: "InternalError: interrupted".
  const message = raw.startsWith('InternalError: ') ? raw.slice('InternalError: '.length) : raw;
  if (message === 'interrupted')
    return `did not finish within ${limits.timeMs} ms and was stopped (RULES_SCRIPT_TIME_MS). Look for a loop that never ends`;
  if (message.startsWith('out of memory') || message === 'string too long')
    return `ran out of memory: the limit is ${limits.memoryBytes} bytes (RULES_SCRIPT_MEMORY_BYTES is ${RULES_SCRIPT_MEMORY_BYTES})`;
  if (message === 'stack overflow')
    return `overflowed its stack of ${limits.stackBytes} bytes (RULES_SCRIPT_STACK_BYTES): look for recursion without an end`;
  return undefined;
}

function clip(text: string): string {
  return text.length > MAX_SANDBOX_MESSAGE_CHARS ? `${text.slice(0, MAX_SANDBOX_MESSAGE_CHARS)}…` : text;
}

/** Nesting depth of plain JSON data, counted iteratively (`{a: [1]}` is 2). */
function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (node === null || typeof node !== 'object') continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (here > MAX_YAML_DEPTH) return here;
    for (const child of Object.values(node)) stack.push({ node: child, depth: here });
  }
  return deepest;
}
