// `mnesos turn <cartridge> --input "…" [--state f] [--messages f] [--world f] [--llm-script f] [--seed N]
// [--json] [--explain]`: one stateless turn, the MnesOS contract: state (story, world) in; state, story, world and
// record out. Narration streams to stdout as it arrives; `--json` prints one object at the end instead.
// Exit codes: 1 bad cartridge or input, 2 usage, 3 the model provider failed.

import {
  admission,
  type AdmittedTurn,
  DEFAULT_ADMISSION,
  isSessionError,
  noTurnAnswer,
  playStatelessTurn,
  type SessionError,
  type TurnRequest,
} from '../../../engine/session/index.ts';
import {
  describeOutcome,
  type GameState,
  type InteractionInput,
  openingMessages,
  publicOutcome,
  type StoryMessage,
  type TurnRecord,
} from '../../../engine/turn/index.ts';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import { toStateValue } from '../../../core/yare/index.ts';
import { loadCartridgeArg } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { chooseModels, OFFLINE_HELP } from './models.ts';
import { explainPrompts } from './explain.ts';
import { fidelityNotice } from './render.ts';
import { readMessagesFile } from './story-file.ts';
import { ledgerTurnOf, readWorldFile } from './world-file.ts';
import { readStateFile } from '../state-file.ts';
import { UserError } from '../user-error.ts';

export interface TurnFlags {
  input?: string;
  interaction?: Record<string, unknown>;
  state?: string;
  messages?: string;
  world?: string;
  llmScript?: string;
  seed: number;
  json?: boolean;
  explain?: boolean;
  strict?: boolean;
}

/** The request admitted, or the admission's refusal as the user's error (exit 1). */
function admitted(request: TurnRequest): AdmittedTurn {
  try {
    return admission(DEFAULT_ADMISSION)(request);
  } catch (error) {
    if (!isSessionError(error)) throw error;
    throw new UserError(error.message, EXIT.user);
  }
}

/** Exactly one of --input and --interaction, admitted as every turn is. */
function turnRequest(flags: TurnFlags): AdmittedTurn {
  if ((flags.input === undefined) === (flags.interaction === undefined)) {
    throw new UserError('give exactly one of --input and --interaction', EXIT.usage);
  }
  // The one admission of a turn (the server's too), with the engine's own input limit and no timeout.
  return admitted({
    turn:
      flags.input !== undefined
        ? { input: flags.input }
        : { interaction: flags.interaction as unknown as InteractionInput },
    ...(flags.strict === true ? { strict: true } : {}),
  });
}

/** The state a turn starts from: the game state, the story so far, the world ledger (each from its file). */
interface TurnStart {
  readonly state: GameState;
  readonly history: StoryMessage[];
  readonly world: ReturnType<typeof readWorldFile> | undefined;
}

function turnStart(cartridge: Cartridge, flags: TurnFlags): TurnStart {
  return {
    state: toStateValue(readStateFile(flags.state, cartridge.rules)) as GameState,
    history: flags.messages === undefined ? openingMessages(cartridge) : readMessagesFile(flags.messages),
    world: flags.world === undefined ? undefined : readWorldFile(flags.world),
  };
}

/**
 * A turn the session layer refused. Offline, the engine may have answered instead of playing (a question, a
 * refusal, a look around, /help): nothing failed and no turn was spent; the state comes back unchanged.
 * Else the failure, as JSON with the exit code set, or as the user's error.
 */
function reportNoTurn(error: SessionError, start: TurnStart, flags: TurnFlags): void {
  const answered = noTurnAnswer(error);
  if (answered !== undefined) {
    if (!flags.json) {
      process.stdout.write(`${error.message}\n`);
      return;
    }
    const { state, world, history } = start;
    const out = {
      ok: true,
      played: false,
      kind: 'reply',
      reason: answered.reason,
      text: answered.text,
      state,
      ...(world === undefined ? {} : { world }),
      messages: history,
    };
    process.stdout.write(`${toJsonText(out, 2)}\n`);
    return;
  }
  const exitCode = error.code === 'model' ? EXIT.provider : EXIT.user;
  if (!flags.json) throw new UserError(error.message, exitCode);
  const kind = typeof error.details.kind === 'string' ? error.details.kind : error.code;
  process.stdout.write(`${toJsonText({ ok: false, error: { kind, message: error.message } }, 2)}\n`);
  process.exitCode = exitCode;
}

/** After the streamed narration: a fidelity fix, the public changes, the prompts (--explain), then warnings. */
function printTurnText(record: TurnRecord, cartridge: Cartridge, flags: TurnFlags): void {
  process.stdout.write(record.narration.endsWith('\n') ? '' : '\n');
  if (record.fidelity !== undefined && record.fidelity.outcome !== 'clean')
    process.stdout.write(`\n${fidelityNotice(record.fidelity)}\n${record.narration}\n`);
  // What changed, as every view lists it (the terminal game, the web client, the OpenAI endpoint's
  // details line); --json has the whole record, private fields included.
  const changes = describeOutcome(publicOutcome(cartridge.rules, record));
  process.stdout.write(`\n${changes.length === 0 ? 'no public change' : changes.join('\n')}\n`);
  if (flags.explain) process.stdout.write(`\n${explainPrompts(record).join('\n')}\n`);
  for (const breach of record.invariants ?? []) {
    const at = `${breach.place.file}:${breach.place.line}:${breach.place.col}`;
    process.stderr.write(`invariant broken: ${at}: ${breach.message}, after event '${breach.event}'\n`);
  }
  for (const warning of record.warnings) process.stderr.write(`warning: ${warning}\n`);
}

export async function runTurnCommand(cartridgeArg: string, flags: TurnFlags): Promise<void> {
  const request = turnRequest(flags);
  const cartridge = await loadCartridgeArg(cartridgeArg);
  const start = turnStart(cartridge, flags);
  const { state, history, world } = start;
  const choice = await chooseModels({ llmScript: flags.llmScript, env: process.env });
  if (choice.kind === 'offline' && !flags.json) process.stderr.write(`${OFFLINE_HELP}\n`);
  let record: TurnRecord;
  try {
    record = await playStatelessTurn(
      {
        request,
        cartridge,
        state,
        messages: history,
        seed: flags.seed,
        models: choice.models,
        ...(world === undefined ? {} : { world }),
        ledgerTurn: ledgerTurnOf(history),
      },
      {
        onEvent: (event) => {
          if (event.type === 'narration_delta' && !flags.json) process.stdout.write(event.text);
        },
      },
    );
  } catch (error) {
    if (!isSessionError(error)) throw error;
    return reportNoTurn(error, start, flags);
  }
  if (!flags.json) return printTurnText(record, cartridge, flags);
  const out = {
    ok: true,
    state: record.stateAfter,
    world: record.ledger.worldAfter,
    messages: [...history, ...record.messages],
    record,
  };
  process.stdout.write(`${toJsonText(out, 2)}\n`);
}
