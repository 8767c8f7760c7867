// Text the terminal shows: state changes, the public state, and the author's view of a turn (`/debug`).
// Pure functions from records to lines, so the formats are tested without a terminal.

import type { AuthorEventRecord, SessionRecord, StoredTurnRecord } from '../../../engine/session/index.ts';
import {
  describeRollLabel,
  type FidelityRecord,
  stripNote,
  type ToolTraceEntry,
} from '../../../engine/turn/index.ts';
import type { RollRecord, StateChange } from '../../../core/yare/index.ts';
import { toJsonText } from '../json-output.ts';

/** One line per change: `state.player.gold: 20 → 12`. */
export function formatChanges(changes: readonly StateChange[]): string[] {
  return changes.map((change) => {
    const path = `state.${change.path.join('.')}`;
    switch (change.op) {
      case 'delete':
        return `${path}: ${toJsonText(change.before)} → (deleted)`;
      case 'set':
        return `${path}: ${change.before === undefined ? '(new)' : toJsonText(change.before)} → ${toJsonText(change.after)}`;
      default: {
        const never: never = change;
        return String(never);
      }
    }
  });
}

/** A JSON value on one line, cut so one huge argument cannot flood the terminal. */
export const MAX_DEBUG_VALUE_CHARS = 400;

function brief(value: unknown): string {
  const text = typeof value === 'string' ? value : toJsonText(value);
  return text.length > MAX_DEBUG_VALUE_CHARS
    ? `${text.slice(0, MAX_DEBUG_VALUE_CHARS)}… (${text.length} chars)`
    : text;
}

/** A call's arguments; a refused call's were never stored, so its length and hash stand in for them. */
function toolArgsText(tool: ToolTraceEntry): string {
  if (tool.refused !== undefined)
    return `‹refused: ${tool.refused.chars} chars, sha256 ${tool.refused.sha256.slice(0, 12)}›`;
  return tool.args === null ? brief(tool.rawArgs) : brief(tool.args);
}

function list<T>(title: string, items: readonly T[] | undefined, line: (item: T) => string): string[] {
  if (items === undefined || items.length === 0) return [`${title}: none`];
  return [`${title}:`, ...items.map((item) => `  ${line(item)}`)];
}

function rollLine(roll: RollRecord): string {
  const label = describeRollLabel(roll.label);
  return `${roll.expr}: ${roll.dice} → [${roll.faces.join(', ')}] = ${roll.total}${label === '' ? '' : `  [${label}]`}`;
}

function turnDebug(record: StoredTurnRecord): string[] {
  return [
    `Turn (${record.mode}, seed ${record.seed}, director: ${record.directorStop})`,
    `Input: ${record.input.text}`,
    ...rulesDebug(record),
    ...promptsDebug(record),
    ...costDebug(record),
    ...ledgerDebug(record),
    ...list('Warnings', record.warnings, (w) => w),
  ];
}

/** What the rules did: notes, rolls, rule calls, invariants broken, the model's tool calls. */
function rulesDebug(record: StoredTurnRecord): string[] {
  return [
    ...list('Notes', record.notes, (note) => note),
    ...list('Rolls', record.rolls, rollLine),
    ...list(
      'Rule calls',
      record.ruleCalls,
      (call) =>
        `${call.source} ${call.event} ${brief(call.inputs)} ${call.ok ? 'ok' : `failed: ${call.error?.message ?? ''}`}`,
    ),
    // Records stored before invariants existed have none.
    ...list(
      'Invariants broken',
      record.invariants,
      (b) =>
        `${b.place.file}:${b.place.line}:${b.place.col}: ${b.message}, after event '${b.event}' (rule call ${b.call})`,
    ),
    ...list(
      'Tool calls',
      record.tools,
      (tool) =>
        `round ${tool.round} ${tool.name}(${toolArgsText(tool)}) → ${tool.ok ? 'ok' : 'error'}: ${brief(tool.content)} [${Math.round(tool.durationMs)} ms]`,
    ),
  ];
}

/** Each prompt sent, with its sections' tokens and whether each was included. */
function promptsDebug(record: StoredTurnRecord): string[] {
  const lines = [`Prompts:${record.prompts.length === 0 ? ' none (no model was called)' : ''}`];
  for (const prompt of record.prompts) {
    lines.push(`  ${prompt.role} #${prompt.call}: ${prompt.tokens} of ${prompt.budget} tokens`);
    for (const section of prompt.sections) {
      lines.push(
        `    ${section.id}: ${section.tokens} tokens, ${section.included ? 'included' : 'left out'} (${section.reason})`,
      );
    }
  }
  return lines;
}

/** What the turn cost: tokens by role, the models, the phases' timings, the game time it advanced. */
function costDebug(record: StoredTurnRecord): string[] {
  const roles = Object.entries(record.usage).filter(([, usage]) => usage.calls > 0);
  const lines = list(
    'Token use',
    roles,
    ([role, u]) =>
      `${role}: ${u.calls} call(s), ${u.inputTokens} in (${u.cachedInputTokens} cached), ${u.outputTokens} out`,
  );
  const models = Object.entries(record.models);
  if (models.length > 0) lines.push(`Models: ${models.map(([role, id]) => `${role}=${id}`).join(', ')}`);
  const { total, ...phases } = record.timings;
  const phaseText = Object.entries(phases).map(([phase, ms]) => `${phase} ${Math.round(ms ?? 0)} ms`);
  lines.push(`Timings: ${[...phaseText, `total ${Math.round(total)} ms`].join(', ')}`);
  if (record.time.advancedSeconds > 0) {
    lines.push(`Game time: ${record.time.before} → ${record.time.after} (+${record.time.advancedSeconds} s)`);
  }
  return lines;
}

/** The world ledger's status and problems; records stored before the ledger existed have no `ledger` part. */
function ledgerDebug(record: StoredTurnRecord): string[] {
  const ledger = (record as { ledger?: { status?: unknown; errors?: readonly { message?: unknown }[] } })
    .ledger;
  if (ledger === undefined) return [];
  const events = (record as { ledgerEvents?: readonly unknown[] }).ledgerEvents ?? [];
  return [
    `World ledger: ${String(ledger.status)}, ${events.length} event(s)`,
    ...(ledger.errors ?? []).map((issue) => `  ${String(issue.message)}`),
  ];
}

function authorDebug(record: AuthorEventRecord): string[] {
  return [
    `Event run by hand: ${record.event} ${brief(record.inputs)} (seed ${record.seed})`,
    ...list('Notes', record.notes, (note) => note),
    ...list('Rolls', record.rolls, rollLine),
  ];
}

/** `/debug`: everything the engine recorded about the turn at the head, for the cartridge's author. */
export function formatDebug(record: SessionRecord | undefined): string {
  if (record === undefined) return 'No record for this turn (it was stored by a newer engine).';
  switch (record.kind) {
    case 'genesis':
      return 'No turn played yet: this is the first message.';
    case 'turn':
      return turnDebug(record).join('\n');
    case 'author-event':
      return authorDebug(record).join('\n');
    default: {
      const never: never = record;
      return String(never);
    }
  }
}

/** Event notes as the player reads them (for `/event`, which has no narration). */
export function formatNotes(notes: readonly string[]): string {
  const lines = notes.map(stripNote).filter((line) => line !== '');
  return lines.length === 0 ? 'Nothing happens.' : lines.join('\n');
}

/** The line said when the engine fixed a narration that contradicted the rules. */
export function fidelityNotice(fidelity: FidelityRecord): string {
  const how = fidelity.outcome === 'repaired' ? 'rewritten by the Narrator' : 'corrected by the engine';
  return `[the narration stated ${fidelity.found.length} thing(s) the rules contradict; ${how}:]`;
}
