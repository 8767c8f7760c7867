// An API key wrapped so that logging, JSON-encoding or inspecting a config never prints it. Only
// `reveal()` gives the value, and only the provider factory calls it.

import { inspect } from 'node:util';

const REDACTED = '[redacted]';

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}
