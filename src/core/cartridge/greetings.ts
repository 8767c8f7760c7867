// `alternate_greetings.json`: other opening messages a new game may start with, a JSON array of strings
// (SillyTavern's `alternate_greetings`). Greeting 0 is `first-message.md`; greeting n is the array's item
// n-1. Each is capped like `first-message.md`, and problems name their place (`alternate_greetings.json:3:5`).

import type { Diagnostic } from '../diagnostics.ts';
import { locateJsonPath, parseJsonText } from '../lore/index.ts';
import { cartError } from './diagnostics.ts';
import { MAX_ALTERNATE_GREETINGS, MAX_FIRST_MESSAGE_BYTES } from './limits.ts';

/** The greetings as written (persona macros not yet applied), or the errors that refuse the file. */
export function parseAlternateGreetings(
  text: string,
  file: string,
): { greetings: string[]; diagnostics: Diagnostic[] } {
  const error = (message: string, path: string): Diagnostic =>
    cartError('CART_BAD_FIELD', message, { file, ...locateJsonPath(text, path) });
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return {
      greetings: [],
      diagnostics: [cartError('CART_BAD_FIELD', parsed.message, { file, ...parsed.at })],
    };
  }
  const value = parsed.value;
  if (!Array.isArray(value)) {
    return { greetings: [], diagnostics: [error('must be a JSON array of greeting texts', '')] };
  }
  if (value.length > MAX_ALTERNATE_GREETINGS) {
    return {
      greetings: [],
      diagnostics: [
        error(
          `${value.length} greetings; the limit is ${MAX_ALTERNATE_GREETINGS} (MAX_ALTERNATE_GREETINGS)`,
          String(MAX_ALTERNATE_GREETINGS),
        ),
      ],
    };
  }
  const diagnostics: Diagnostic[] = [];
  const greetings: string[] = [];
  value.forEach((item: unknown, index) => {
    if (typeof item !== 'string' || item.trim() === '') {
      diagnostics.push(error(`greeting ${index + 1} must be non-empty text`, String(index)));
    } else if (Buffer.byteLength(item, 'utf8') > MAX_FIRST_MESSAGE_BYTES) {
      diagnostics.push(
        error(
          `greeting ${index + 1} is ${Buffer.byteLength(item, 'utf8')} bytes; the limit is ${MAX_FIRST_MESSAGE_BYTES} (MAX_FIRST_MESSAGE_BYTES)`,
          String(index),
        ),
      );
    } else {
      greetings.push(item);
    }
  });
  return { greetings: diagnostics.length > 0 ? [] : greetings, diagnostics };
}
