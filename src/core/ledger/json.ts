// Guards for untrusted JSON. Both run iteratively: a value nested 100,000 deep parses fine with
// `JSON.parse` but overflows the stack of any recursive walk, clone or stringify, so
// depth and size are checked before any other code looks at the value.

import { type LedgerError, ledgerError } from './errors.ts';
import type { LedgerLimits } from './limits.ts';

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Checks that `value` is JSON data (plain objects, arrays, strings, numbers, booleans, null) within the
 * depth, node and size limits. Size is counted in UTF-16 code units of strings and keys, a lower bound of
 * the UTF-8 size. Returns the first problem, as a batch-level error (index -1), or null.
 */
export function guardJsonValue(value: unknown, limits: LedgerLimits): LedgerError | null {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let nodes = 0;
  let size = 0;
  while (stack.length > 0) {
    const { value: node, depth } = stack.pop()!;
    nodes += 1;
    if (nodes > limits.maxJsonNodes) {
      return ledgerError(-1, 'LEDGER_TOO_BIG', `arguments have more than ${limits.maxJsonNodes} values`);
    }
    if (node === null || typeof node === 'boolean' || typeof node === 'number') continue;
    if (typeof node === 'string') {
      size += node.length;
      if (size > limits.maxJsonBytes) {
        return ledgerError(-1, 'LEDGER_TOO_BIG', `arguments are larger than ${limits.maxJsonBytes} bytes`);
      }
      continue;
    }
    if (typeof node !== 'object') {
      return ledgerError(-1, 'LEDGER_NOT_JSON', `arguments contain a ${typeof node}, which is not JSON`);
    }
    if (depth > limits.maxJsonDepth) {
      return ledgerError(
        -1,
        'LEDGER_TOO_DEEP',
        `arguments are nested deeper than ${limits.maxJsonDepth} levels`,
      );
    }
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i], depth: depth + 1 });
      continue;
    }
    if (!isPlainObject(node)) {
      return ledgerError(-1, 'LEDGER_NOT_JSON', 'arguments contain an object that is not plain JSON data');
    }
    for (const key of Object.keys(node)) {
      size += key.length;
      stack.push({ value: (node as Record<string, unknown>)[key], depth: depth + 1 });
    }
    if (size > limits.maxJsonBytes) {
      return ledgerError(-1, 'LEDGER_TOO_BIG', `arguments are larger than ${limits.maxJsonBytes} bytes`);
    }
  }
  return null;
}

/** UTF-8 length of a string without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

export type ParsedArguments = { ok: true; value: unknown } | { ok: false; error: LedgerError };

/**
 * Parses raw tool-call argument text: byte cap first, then `JSON.parse` (which does not recurse), then one
 * iterative scan of the (now known valid) text for nesting depth and duplicate keys — `JSON.parse` keeps
 * the last of two equal keys silently, a parser differential a hostile model could exploit.
 */
export function parseToolArguments(text: string, limits: LedgerLimits): ParsedArguments {
  // UTF-8 needs at least one byte per UTF-16 unit, so the cheap check settles most oversized inputs.
  if (text.length > limits.maxJsonBytes || utf8Length(text) > limits.maxJsonBytes) {
    return {
      ok: false,
      error: ledgerError(-1, 'LEDGER_TOO_BIG', `arguments are larger than ${limits.maxJsonBytes} bytes`),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      ok: false,
      error: ledgerError(-1, 'LEDGER_NOT_JSON', 'arguments are not valid JSON (truncated or malformed)'),
    };
  }
  const scan = scanStructure(text, limits.maxJsonDepth);
  if (scan !== null) return { ok: false, error: scan };
  return { ok: true, value };
}

interface Frame {
  readonly kind: 'object' | 'array';
  readonly keys: Set<string> | null;
  expectKey: boolean;
}

/** Depth and duplicate-key scan over text already accepted by JSON.parse. */
function scanStructure(text: string, maxDepth: number): LedgerError | null {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') {
      if (stack.length + 1 > maxDepth) {
        return ledgerError(-1, 'LEDGER_TOO_DEEP', `arguments are nested deeper than ${maxDepth} levels`);
      }
      stack.push(
        c === '{'
          ? { kind: 'object', keys: new Set(), expectKey: true }
          : { kind: 'array', keys: null, expectKey: false },
      );
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.expectKey = true;
    } else if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectKey) {
        // Decode escapes so "a" and "\u0061" count as the same key, as JSON.parse sees them.
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys!.has(key)) {
          return ledgerError(
            -1,
            'LEDGER_DUPLICATE_KEY',
            `arguments repeat the key ${JSON.stringify(key.slice(0, 40))} in one object`,
          );
        }
        top.keys!.add(key);
        top.expectKey = false;
      }
      i = end;
    }
  }
  return null;
}
