// `mnesos turn <cartridge> --input "…" [--state f] [--messages f] [--world f] [--llm-script f] [--seed N]
// [--json]`: one stateless turn, the MnesOS contract: state (story, world) in; state, story, world and
// record out. Narration streams to stdout as it arrives; `--json` prints one object at the end instead.
// Exit codes: 1 bad cartridge or input, 2 usage, 3 the model provider failed.

import {
  type GameState,
  type InteractionInput,
  isTurnError,
  openingMessages,
  runTurn,
  type StoryMessage,
  type TurnRecord,
} from '../../../engine/turn/index.ts';
import { toStateValue } from '../../../core/yare/index.ts';
import { loadCartridgeArg } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { chooseModels, OFFLINE_HELP } from './models.ts';
import { fidelityNotice, formatChanges } from './render.ts';
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
}

export async function runTurnCommand(cartridgeArg: string, flags: TurnFlags): Promise<void> {
  if ((flags.input === undefined) === (flags.interaction === undefined)) {
    throw new UserError('give exactly one of --input and --interaction', EXIT.usage);
  }
  const cartridge = await loadCartridgeArg(cartridgeArg);
  const state = toStateValue(readStateFile(flags.state, cartridge.rules)) as GameState;
  const history: StoryMessage[] =
    flags.messages === undefined ? openingMessages(cartridge) : readMessagesFile(flags.messages);
  const world = flags.world === undefined ? undefined : readWorldFile(flags.world);
  const choice = await chooseModels({ llmScript: flags.llmScript, env: process.env });
  if (choice.kind === 'offline' && !flags.json) process.stderr.write(`${OFFLINE_HELP}\n`);

  let record: TurnRecord | undefined;
  try {
    for await (const event of runTurn({
      cartridge,
      state,
      messages: history,
      ...(flags.input !== undefined
        ? { input: flags.input }
        : { interaction: flags.interaction as unknown as InteractionInput }),
      seed: flags.seed,
      models: choice.models,
      ...(world === undefined ? {} : { world }),
      ledgerTurn: ledgerTurnOf(history),
    })) {
      if (event.type === 'narration_delta' && !flags.json) process.stdout.write(event.text);
      if (event.type === 'done') record = event.record;
    }
  } catch (error) {
    if (!isTurnError(error)) throw error;
    throw new UserError(error.message, error.kind === 'model' ? EXIT.provider : EXIT.user);
  }
  if (record === undefined) throw new Error('the turn ended without a record');

  if (flags.json) {
    const out = {
      ok: true,
      state: record.stateAfter,
      world: record.ledger.worldAfter,
      messages: [...history, ...record.messages],
      record,
    };
    process.stdout.write(`${toJsonText(out, 2)}\n`);
    return;
  }
  process.stdout.write(record.narration.endsWith('\n') ? '' : '\n');
  if (record.fidelity !== undefined && record.fidelity.outcome !== 'clean')
    process.stdout.write(`\n${fidelityNotice(record.fidelity)}\n${record.narration}\n`);
  const changes = formatChanges(record.delta);
  process.stdout.write(`\n${changes.length === 0 ? 'state: unchanged' : changes.join('\n')}\n`);
  for (const warning of record.warnings) process.stderr.write(`warning: ${warning}\n`);
}
