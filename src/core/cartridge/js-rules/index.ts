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
import { runRulesModule, type SandboxLimits, DEFAULT_SANDBOX_LIMITS } from './sandbox.ts';
import { originalPlace, transpileTypeScript } from './transpile.ts';

export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, stopRulesSandbox } from './sandbox.ts';
export * from './limits.ts';

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

export function rulesFromScript(
  source: string,
  language: RulesScriptLanguage,
  path: string,
  limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
): RulesScriptResult {
  const start: SourcePlace = { file: path, line: 1, col: 1 };
  const fail = (code: CartridgeCode, message: string, place: SourcePlace = start): RulesScriptResult => ({
    ok: false,
    diagnostics: [cartError(code, message, place)],
  });

  // The sandbox sees a short, fixed file name, so its stack lines are easy to find and reveal no folder.
  const sandboxFile = language === 'ts' ? 'yare.ts.js' : 'yare.js';
  let code = source;
  let toSource = (line: number, col: number) => ({ line, col });
  if (language === 'ts') {
    const transpiled = transpileTypeScript(source, 'yare.ts');
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
    toSource = (line, col) => originalPlace(transpiled.map, line, col);
  }

  const result = runRulesModule(code, sandboxFile, limits);
  switch (result.kind) {
    case 'ok':
      break;
    case 'timeout':
      return fail(
        'CART_RULES_SCRIPT_LIMIT',
        `The rules module did not finish within ${result.waitedMs} ms and was stopped (RULES_SCRIPT_TIME_MS is ${RULES_SCRIPT_TIME_MS}, plus SANDBOX_GRACE_MS). Look for a loop that never ends, or a huge nested value.`,
      );
    case 'crashed':
      return fail(
        'CART_RULES_SCRIPT_LIMIT',
        `The rules module broke the sandbox and was stopped (${clip(result.message)}). Look for very deep recursion or a huge allocation.`,
      );
    case 'too-large':
      return fail(
        'CART_RULES_SCRIPT_LIMIT',
        `The rules object is ${result.chars} characters as JSON; the limit is ${limits.maxJsonChars} (MAX_RULES_JSON_CHARS is ${MAX_RULES_JSON_CHARS}).`,
      );
    case 'error': {
      const at = placeInStack(result.stack, sandboxFile);
      const place = at ? { file: path, ...toSource(at.line, at.col) } : start;
      const limit = limitMessage(result.message, limits);
      const during = result.phase === 'serialize' ? ' while its default export was converted to JSON' : '';
      if (limit) return fail('CART_RULES_SCRIPT_LIMIT', `The rules module ${limit}${during}.`, place);
      return fail(
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

  let value: unknown;
  try {
    value = JSON.parse(result.json);
  } catch {
    return fail('CART_RULES_SCRIPT_SHAPE', 'The rules object did not come out as valid JSON.');
  }
  const depth = jsonDepth(value);
  if (depth > MAX_YAML_DEPTH) {
    return fail(
      'CART_TOO_DEEP',
      `The rules object nests ${depth} levels deep; the limit is ${MAX_YAML_DEPTH} (MAX_YAML_DEPTH), as for yare.yaml.`,
    );
  }
  const yaml = stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
  const generatedFile = `${path}.generated.yaml`;
  let index: GeneratedYamlIndex | undefined;
  const remap = (diagnostic: Diagnostic): Diagnostic => {
    if (diagnostic.place?.file !== generatedFile) return diagnostic;
    index ??= new GeneratedYamlIndex(yaml);
    const rulesPath = index.pathAt(diagnostic.place.line, diagnostic.place.col);
    const written = placeOfRulesPath(source, rulesPath);
    return {
      ...diagnostic,
      message: `${diagnostic.message} (in the rules object at ${formatRulesPath(rulesPath)})`,
      place: { file: path, line: written?.line ?? 1, col: written?.col ?? 1 },
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
