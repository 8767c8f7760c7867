// A prepared turn as the caller holds it: `run` streams the run stage, then commits; whatever happens, the
// claim is given back once and the observer hears the outcome and duration (from the start of `run`).

import type { Cartridge } from '../../../core/cartridge/index.ts';
import type { Turn } from '../../../adapters/store/index.ts';
import type { TurnEvent, TurnRecord } from '../../turn/index.ts';
import { SessionError } from '../errors.ts';
import type { TurnClaim } from './claim.ts';
import { type CommitDeps, commitTurn } from './commit.ts';
import { runStage } from './run.ts';
import type { ReadyTurn, RunOptions, TurnContext, TurnEnvironment, TurnOutcome } from './types.ts';

export type TurnJobDeps = CommitDeps &
  Pick<TurnEnvironment, 'monotonic' | 'observer' | 'turnLimits' | 'turnYield' | 'admission'>;

export class TurnJob implements ReadyTurn {
  readonly kind = 'ready';
  readonly turnId: string;
  readonly parentId: string;
  readonly seed: number;
  readonly mode: 'online' | 'offline';
  readonly cartridge: Cartridge;
  readonly #deps: TurnJobDeps;
  readonly #context: TurnContext;
  readonly #claim: TurnClaim;

  constructor(deps: TurnJobDeps, context: TurnContext, claim: TurnClaim) {
    this.#deps = deps;
    this.#context = context;
    this.#claim = claim;
    this.turnId = context.turnId;
    this.parentId = context.parentId;
    this.seed = context.seed;
    this.mode = context.models === null ? 'offline' : 'online';
    this.cartridge = context.cartridge;
  }

  release(): void {
    this.#claim.release();
  }

  async *run(options: RunOptions = {}): AsyncGenerator<TurnEvent, Turn, undefined> {
    const started = this.#deps.monotonic();
    let outcome: TurnOutcome = 'error';
    let record: TurnRecord | undefined;
    try {
      const ran = yield* runStage(
        this.#context,
        { ...options, timeoutMs: this.#deps.admission.turnTimeoutMs, yieldNow: this.#deps.turnYield },
        this.#deps.turnLimits,
      );
      record = ran.record;
      if (ran.kind === 'failed') throw ran.error;
      const committed = await commitTurn(this.#deps, this.#context, ran.record);
      if (committed.kind === 'refused') throw committed.error;
      outcome = committed.kind;
      return committed.turn;
    } catch (error) {
      outcome = outcomeOf(error);
      throw error;
    } finally {
      this.#claim.release();
      this.#deps.observer?.onTurn?.(outcome, this.#deps.monotonic() - started, record);
    }
  }
}

/** The metrics outcome of a turn that ended with `error`. */
export function outcomeOf(error: unknown): TurnOutcome {
  if (!(error instanceof SessionError)) return 'error';
  switch (error.code) {
    case 'conflict':
    case 'turn-in-flight':
    case 'taken':
      return 'conflict';
    case 'aborted':
      return 'aborted';
    case 'timeout':
      return 'timeout';
    case 'model':
    case 'settings':
      return 'model';
    case 'answered':
      return 'answered';
    case 'invalid':
    case 'too-large':
    case 'malformed':
    case 'input-too-long':
      return 'invalid';
    case 'too-costly':
      return 'too-costly';
    case 'not-found':
    case 'cartridge':
    case 'session-cap':
    case 'not-allowed':
    case 'table-limit':
      return 'error';
    default: {
      const unreachable: never = error.code;
      return unreachable;
    }
  }
}
