// The bus of one process: a map from session to its listeners. Enough for SQLite (one server process) and
// the part of the PostgreSQL bus that delivers on the process that published (pg-notify.ts).

import type { BusListener, BusMessage, TableBus } from './types.ts';

/** Listeners of each session; a listener that throws is reported and never stops the others. */
export class Listeners {
  readonly #bySession = new Map<string, Set<BusListener>>();

  add(sessionId: string, listener: BusListener): () => void {
    let set = this.#bySession.get(sessionId);
    if (set === undefined) {
      set = new Set();
      this.#bySession.set(sessionId, set);
    }
    set.add(listener);
    return () => {
      const current = this.#bySession.get(sessionId);
      if (current === undefined) return;
      current.delete(listener);
      if (current.size === 0) this.#bySession.delete(sessionId);
    };
  }

  deliver(message: BusMessage): void {
    const set = this.#bySession.get(message.sessionId);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        listener(message);
      } catch (error) {
        process.emitWarning(`a table listener failed: ${(error as Error).message}`, {
          code: 'MNESOS_TABLE_LISTENER_FAILED',
        });
      }
    }
  }

  /** Sessions with at least one listener. */
  get sessions(): number {
    return this.#bySession.size;
  }
}

export class LocalBus implements TableBus {
  readonly crossesProcesses = false;
  readonly #listeners = new Listeners();

  publish(message: BusMessage): void {
    // Delivered after the publisher's own work, as a replica's would be: no listener runs inside it.
    queueMicrotask(() => this.#listeners.deliver(message));
  }

  subscribe(sessionId: string, listener: BusListener): () => void {
    return this.#listeners.add(sessionId, listener);
  }

  async close(): Promise<void> {}
}
