// Free order's queue: first come, first played. A member who sends while another's turn plays is not
// refused; their request takes a ticket (in the store, so every replica sees one queue) and waits until it
// is first, woken by the table's live events (the bus crosses replicas) and by a short poll as a backstop.
// A ticket is held by this process's claim owner: a replica that dies leaves tickets a live one drops after
// the lease, so nobody waits behind a turn that will never end. A waiter whose client goes away, or who
// waited longer than the queue's wait, leaves the queue.

import { setTimeout as sleep } from 'node:timers/promises';
import type { TableBus } from '../../../adapters/bus/index.ts';
import type { QueueTicket, Store } from '../../../adapters/store/index.ts';
import type { ClaimOwner } from '../claim-owner.ts';
import { SessionError } from '../errors.ts';
import type { TableEventBody } from './events.ts';

/** Milliseconds between two looks at the queue when no event came (the bus wakes a waiter sooner). */
export const QUEUE_POLL_MS = 250;

export interface QueueDeps {
  readonly store: Store;
  readonly bus: TableBus;
  readonly claimOwner: ClaimOwner;
  readonly clock: () => number;
  readonly monotonic: () => number;
  readonly newId: () => string;
  readonly publish: (sessionId: string, body: TableEventBody) => Promise<unknown>;
  /** Turn requests one table holds waiting at once (MAX_QUEUED_TURNS). */
  readonly maxQueued: number;
  /** Milliseconds a request waits for its turn before it gives up (the turn timeout times the queue). */
  readonly maxWaitMs: number;
}

/** A place in the queue: given up once, however the turn ends. */
export class QueuePlace {
  #left = false;

  constructor(
    readonly deps: QueueDeps,
    readonly ticket: QueueTicket,
  ) {}

  /**
   * Leaves the queue (the turn ended, failed, or was never run). The table hears of it when the queue it
   * was told of changes: someone still waits, or this place was announced; an uncontended turn adds no
   * queue events (its own `turn_started` and `turn` say it all).
   */
  async leave(): Promise<void> {
    if (this.#left) return;
    this.#left = true;
    const { store } = this.deps;
    try {
      await store.removeTicket(this.ticket.sessionId, this.ticket.id);
      const left = await store.listQueue(this.ticket.sessionId);
      if (left.length > 0 || this.announced) await publishQueue(this.deps, this.ticket.sessionId, left);
    } finally {
      this.deps.claimOwner.letGo();
    }
  }

  /** Whether the table was told of the queue while this place was in it. */
  announced = false;
}

/** Tells the table the queue as it is now. */
export async function announceQueue(
  deps: Pick<QueueDeps, 'store' | 'publish'>,
  sessionId: string,
): Promise<void> {
  await publishQueue(deps, sessionId, await deps.store.listQueue(sessionId));
}

async function publishQueue(
  deps: Pick<QueueDeps, 'publish'>,
  sessionId: string,
  queue: readonly QueueTicket[],
): Promise<void> {
  await deps.publish(sessionId, {
    kind: 'queue',
    queue: queue.map((t) => ({ character: t.character, position: t.position })),
  });
}

/** Takes a ticket and waits until it is first; throws (having left the queue) when refused or abandoned. */
export async function waitForTurn(
  deps: QueueDeps,
  sessionId: string,
  who: { principalId: string; character: string },
  signal: AbortSignal | undefined,
): Promise<QueuePlace> {
  await deps.claimOwner.hold();
  const taken = await deps.store
    .enqueueTurn(
      {
        id: deps.newId(),
        sessionId,
        principalId: who.principalId,
        character: who.character,
        ownerId: deps.claimOwner.id,
        queuedAt: deps.clock(),
      },
      deps.maxQueued,
    )
    .catch((error: unknown) => {
      deps.claimOwner.letGo();
      throw error;
    });
  if (!taken.ok) {
    deps.claimOwner.letGo();
    throw new SessionError(
      'table-limit',
      `${taken.limit} turns are waiting at this table already, the most it holds (MAX_QUEUED_TURNS); send again later`,
      { limit: taken.limit, what: 'queue' },
    );
  }
  const place = new QueuePlace(deps, taken.ticket);
  try {
    // Someone is playing or waiting ahead: the table sees this turn wait (else it just plays).
    const queue = await deps.store.listQueue(sessionId);
    if (queue.length > 1) {
      await publishQueue(deps, sessionId, queue);
      place.announced = true;
    }
    await untilFirst(deps, place, signal);
    return place;
  } catch (error) {
    await place.leave();
    throw error;
  }
}

async function untilFirst(
  deps: QueueDeps,
  place: QueuePlace,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { sessionId, id } = place.ticket;
  const deadline = deps.monotonic() + deps.maxWaitMs;
  for (;;) {
    const queue = await deps.store.listQueue(sessionId);
    if (queue[0]?.id === id) return;
    if (!queue.some((t) => t.id === id))
      throw new SessionError(
        'aborted',
        'this turn lost its place in the queue (its server stopped holding it); send it again',
      );
    // A ticket of a replica that is gone stops nobody for longer than the lease.
    if ((await deps.store.dropStaleTickets(sessionId, deps.claimOwner.leaseBefore(deps.clock()))) > 0) {
      await announceQueue(deps, sessionId);
      place.announced = true;
      continue;
    }
    if (signal?.aborted)
      throw new SessionError('aborted', 'the turn was cancelled while it waited; nothing was played');
    if (deps.monotonic() >= deadline)
      throw new SessionError(
        'timeout',
        `the turn waited ${deps.maxWaitMs} ms in the queue and was given up; nothing was played`,
      );
    await nextChange(deps.bus, sessionId, QUEUE_POLL_MS, signal);
  }
}

/** Resolves at the table's next live event, after `ms`, or when `signal` aborts, whichever comes first. */
function nextChange(
  bus: TableBus,
  sessionId: string,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = sleep(ms, undefined, { ref: false }).then(done, done);
    let finished = false;
    const stop = bus.subscribe(sessionId, (message) => {
      if (message.kind === 'event') done();
    });
    function done(): void {
      if (finished) return;
      finished = true;
      stop();
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
    void timer;
  });
}
