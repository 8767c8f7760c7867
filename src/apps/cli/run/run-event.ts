// The work of `mnesos run-event <cartridge> <event> [--input k=v]... [--state f] [--seed N] [--json]`: runs one event and
// prints its notes and the state diff.

import { formatPlace } from '../../../core/diagnostics.ts';
import { type Dict, diffStates, runEvent, toStateValue } from '../../../core/yare/index.ts';
// browser.ts, not the index: the index loads the model layer, which run-event never uses.
import { describeRollLabel } from '../../../engine/turn/browser.ts';
import { loadCartridgeArg } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { readStateFile } from '../state-file.ts';

export interface RunEventFlags {
  input: Record<string, unknown>;
  state?: string;
  seed?: number;
  json?: boolean;
}

type EventRun = ReturnType<typeof runEvent>;

export async function runRunEvent(
  cartridgeArg: string,
  eventName: string,
  flags: RunEventFlags,
): Promise<void> {
  const cartridge = await loadCartridgeArg(cartridgeArg);
  const rules = cartridge.rules;
  const before = readStateFile(flags.state, rules);
  const result = runEvent(rules, before, eventName, flags.input, { seed: flags.seed ?? 0 });
  if (flags.json) {
    printRunJson(result, before);
    process.exitCode = result.ok ? EXIT.ok : EXIT.user;
    return;
  }
  if (!result.ok) {
    const where = result.error.place ? `${formatPlace(result.error.place)}: ` : '';
    process.stderr.write(`${where}${result.error.message} [${result.error.code}]\n`);
    process.exitCode = EXIT.user;
    return;
  }
  printRunText(result, before);
}

/** One JSON document: notes, rolls, the state after (the state before when the event failed), the error. */
function printRunJson(result: EventRun, before: Dict): void {
  const out = result.ok
    ? { ok: true, notes: result.notes, state: result.state, rolls: result.rolls }
    : {
        ok: false,
        notes: result.notes,
        state: before,
        rolls: result.rolls,
        error: {
          code: result.error.code,
          message: result.error.message,
          at: result.error.place ? formatPlace(result.error.place) : null,
        },
      };
  process.stdout.write(`${toJsonText(out, 2)}\n`);
}

/** Notes, rolls (with what each was for), then each changed path of the state. */
function printRunText(result: Extract<EventRun, { ok: true }>, before: Dict): void {
  for (const note of result.notes) process.stdout.write(`note: ${note}\n`);
  for (const roll of result.rolls) {
    const label = describeRollLabel(roll.label);
    process.stdout.write(
      `roll: ${roll.expr} ${roll.dice} → [${roll.faces.join(', ')}] = ${roll.total}${label === '' ? '' : `  [${label}]`}\n`,
    );
  }
  const changes = diffStates(toStateValue(before), toStateValue(result.state));
  if (changes.length === 0) process.stdout.write('state: unchanged\n');
  for (const change of changes) {
    const path = `state.${change.path.join('.')}`;
    if (change.op === 'delete') process.stdout.write(`${path}: ${toJsonText(change.before)} → (deleted)\n`);
    else
      process.stdout.write(
        `${path}: ${change.before === undefined ? '(new)' : toJsonText(change.before)} → ${toJsonText(change.after)}\n`,
      );
  }
}
