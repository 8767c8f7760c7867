// The table bus across replicas, through PostgreSQL's own LISTEN/NOTIFY (no other broker). Each process holds
// one connection of its own that LISTENs on one channel and sends with pg_notify on the same connection, in
// order. A message is delivered on this process at once and on every other replica when PostgreSQL passes it
// on; each process drops its own echo. A NOTIFY payload is under 8000 bytes: messages name what changed (a
// table event's number, a piece of narration of at most MAX_NARRATION_MESSAGE_CHARS), never the turn itself.
//
// The connection is re-made after a failure, with backoff; while it is down, messages reach this process
// only, and the live streams' own backstop (a periodic look at each table's newest event number) catches up
// the other replicas' members.

import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { Listeners } from './local.ts';
import type { BusListener, BusMessage, TableBus } from './types.ts';

/** The one channel every replica of a database LISTENs on. */
export const TABLE_CHANNEL = 'mnesos_table';
/** Bytes of one NOTIFY payload PostgreSQL takes (8000), less room for safety. */
export const MAX_NOTIFY_BYTES = 7_900;
/** Messages waiting to be sent while the connection is down or busy; older ones are dropped past it. */
export const MAX_PENDING_NOTIFIES = 10_000;
/** Milliseconds between reconnection attempts, doubling up to the second figure. */
const RECONNECT_MS: readonly [number, number] = [100, 5_000];

interface Wire {
  /** The sending process. */
  readonly o: string;
  readonly m: BusMessage;
}

export class PgNotifyBus implements TableBus {
  readonly crossesProcesses = true;
  readonly origin = randomUUID();
  readonly #driver: typeof pg;
  readonly #url: string;
  readonly #listeners = new Listeners();
  readonly #pending: string[] = [];
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #sending = false;
  #closed = false;
  #retryMs = RECONNECT_MS[0];
  /** Messages dropped: over the payload size, or the pending queue full. */
  dropped = 0;

  private constructor(driver: typeof pg, url: string) {
    this.#driver = driver;
    this.#url = url;
  }

  /** Connects and LISTENs before it returns, so no message sent after start is missed. */
  static async open(url: string): Promise<PgNotifyBus> {
    const driver = (await import('pg')).default;
    const bus = new PgNotifyBus(driver, url);
    await bus.#connect();
    return bus;
  }

  publish(message: BusMessage): void {
    queueMicrotask(() => this.#listeners.deliver(message));
    if (this.#closed) return;
    const payload = JSON.stringify({ o: this.origin, m: message } satisfies Wire);
    if (Buffer.byteLength(payload, 'utf8') > MAX_NOTIFY_BYTES) {
      this.dropped += 1;
      return;
    }
    if (this.#pending.length >= MAX_PENDING_NOTIFIES) {
      this.#pending.shift();
      this.dropped += 1;
    }
    this.#pending.push(payload);
    void this.#flush();
  }

  subscribe(sessionId: string, listener: BusListener): () => void {
    return this.#listeners.add(sessionId, listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new this.#driver.Client({ connectionString: this.#url });
    client.on('notification', (note) => this.#receive(note.payload));
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    await client.connect();
    await client.query(`LISTEN ${TABLE_CHANNEL}`);
    this.#client = client;
    this.#retryMs = RECONNECT_MS[0];
    void this.#flush();
  }

  #receive(payload: string | undefined): void {
    if (payload === undefined) return;
    let wire: Wire;
    try {
      wire = JSON.parse(payload) as Wire;
    } catch {
      return; // not ours: another program on the channel
    }
    if (wire.o === this.origin || typeof wire.m?.sessionId !== 'string') return;
    this.#listeners.deliver(wire.m);
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    void client.end().catch(() => undefined);
    this.#reconnect();
  }

  #reconnect(): void {
    if (this.#closed || this.#connecting !== undefined) return;
    const wait = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, RECONNECT_MS[1]);
    this.#connecting = new Promise<void>((resolve) => setTimeout(resolve, wait).unref())
      .then(() => (this.#closed ? undefined : this.#connect()))
      .catch(() => undefined)
      .finally(() => {
        this.#connecting = undefined;
        if (this.#client === undefined) this.#reconnect();
      });
  }

  /** Sends the pending messages in order, one statement at a time on the listening connection. */
  async #flush(): Promise<void> {
    if (this.#sending) return;
    this.#sending = true;
    try {
      while (this.#pending.length > 0 && this.#client !== undefined) {
        const payload = this.#pending[0]!;
        try {
          await this.#client.query('select pg_notify($1, $2)', [TABLE_CHANNEL, payload]);
          this.#pending.shift();
        } catch {
          // The connection failed: its 'error' or 'end' makes a new one, which flushes again.
          return;
        }
      }
    } finally {
      this.#sending = false;
    }
  }
}

/** The bus for a database: across replicas over PostgreSQL, this process only over SQLite. */
export async function openBus(databaseUrl: string | undefined): Promise<TableBus> {
  if (databaseUrl !== undefined && /^postgres(ql)?:\/\//i.test(databaseUrl.trim()))
    return PgNotifyBus.open(databaseUrl.trim());
  const { LocalBus } = await import('./local.ts');
  return new LocalBus();
}
