// The table bus: how the members' live streams hear that something happened at a table, on this process and
// on every other replica of the same database. A message names what changed (a numbered table event, stored
// by the store), or carries a passing moment that is never stored (narration as it streams); receivers read
// what they show from the store and filter it for each member (engine/session/table, apps/server/live).

/** A message on the bus. `event`: the table's event `seq` was stored; `passing`: not stored, sent once. */
export type BusMessage =
  | {
      readonly kind: 'event';
      readonly sessionId: string;
      readonly seq: number;
      /**
       * The stored event itself (it is small: names, ids), so a receiver that has every earlier one need not
       * read it back; a receiver that missed one reads from the store, in order.
       */
      readonly event?: BusTableEvent;
    }
  | { readonly kind: 'passing'; readonly sessionId: string; readonly payload: PassingPayload };

/** What streams while a turn plays: who started it, its prose as it comes, and that it failed. */
export type PassingPayload =
  | {
      readonly type: 'turn_started';
      readonly turnId: string;
      readonly character: string;
      /** The turn is a whisper: only its player and those who steer the table may hear it. */
      readonly whisper: boolean;
    }
  | {
      readonly type: 'narration';
      readonly turnId: string;
      /** Who plays the turn ('' for a round: everyone). */
      readonly character: string;
      readonly text: string;
      readonly whisper: boolean;
    }
  | { readonly type: 'turn_failed'; readonly turnId: string; readonly character: string };

/** A table event as the store keeps it (adapters/store TableEvent), carried whole on the bus. */
export interface BusTableEvent {
  readonly sessionId: string;
  readonly seq: number;
  readonly kind: string;
  readonly payload: unknown;
  readonly createdAt: number;
}

export type BusListener = (message: BusMessage) => void;

export interface TableBus {
  /** Sends to every subscriber of the session, here and on other replicas. Never throws. */
  publish(message: BusMessage): void;
  /** Listens to one session; returns the unsubscribe. */
  subscribe(sessionId: string, listener: BusListener): () => void;
  /** Whether messages reach other processes (false: this process only). */
  readonly crossesProcesses: boolean;
  close(): Promise<void>;
}
