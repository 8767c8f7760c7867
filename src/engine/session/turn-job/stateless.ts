// A stateless turn through the session's door: the state and story come from the caller and nothing is
// stored, but the request is the one admission has checked, the engine runs under the same turn timeout
// and its errors mean the same SessionErrors as a session turn's (runEngine). Used by `POST /v1/turn`
// (through SessionService.playStateless, with the principal's models), by `mnesos turn` and by explore's
// turn steps (tools/authoring/explore/play.ts).

import type { Cartridge, Persona } from '../../../core/cartridge/index.ts';
import type { ModelSet } from '../../../adapters/llm/index.ts';
import type { GameState, StoryMessage, TurnLimits, TurnOptions, TurnRecord } from '../../turn/index.ts';
import { type TurnSink, pump } from './drive.ts';
import { runEngine } from './run.ts';
import type { AdmittedTurn } from './types.ts';

export interface StatelessTurn {
  readonly request: AdmittedTurn;
  readonly cartridge: Cartridge;
  /** The state before the turn (the cartridge's initial state when the caller has none). */
  readonly state: GameState;
  readonly messages: readonly StoryMessage[];
  readonly seed: number;
  /** null: offline. */
  readonly models: ModelSet | null;
  readonly persona?: Persona;
  readonly world?: TurnOptions['world'];
  readonly ledgerTurn?: number;
  readonly limits?: Partial<TurnLimits>;
  /** The engine's clock for timings (default `performance.now`); explore passes a fixed one to replay exactly. */
  readonly now?: TurnOptions['now'];
}

/** Plays the turn to its record, events to the sink. Throws SessionError when the turn did not finish. */
export async function playStatelessTurn(
  turn: StatelessTurn,
  sink: TurnSink = {},
  timeoutMs?: number,
): Promise<TurnRecord> {
  const { request } = turn;
  const engine: Omit<TurnOptions, 'signal'> = {
    cartridge: turn.cartridge,
    state: turn.state,
    messages: turn.messages,
    ...('input' in request.turn ? { input: request.turn.input } : { interaction: request.turn.interaction }),
    seed: turn.seed,
    models: turn.models,
    ...(turn.persona === undefined ? {} : { persona: turn.persona }),
    ...(turn.world === undefined ? {} : { world: turn.world }),
    ...(turn.ledgerTurn === undefined ? {} : { ledgerTurn: turn.ledgerTurn }),
    ...(turn.limits === undefined ? {} : { limits: turn.limits }),
    ...(turn.now === undefined ? {} : { now: turn.now }),
    ...(request.playerContext === undefined ? {} : { playerContext: request.playerContext }),
    ...(request.trigger === undefined ? {} : { worldInfoTrigger: request.trigger }),
    ...(request.strict === true ? { strict: true } : {}),
  };
  const ran = await pump(
    runEngine(engine, { ...(sink.signal === undefined ? {} : { signal: sink.signal }), timeoutMs }),
    sink.onEvent,
  );
  if (ran.kind === 'failed') throw ran.error;
  return ran.record;
}
