// The work of `mnesos explore` (see ../commands/explore.ts and docs/explore.md): the options read and
// checked here (so a bad value is a usage error in `--json` too), the exploration run by the pure explorer
// (tools/authoring/explore), its report printed, and with `--write-failures` each shrunk violation
// written as a scenario file.

import { prepareFolder, writeInside } from '../../../adapters/files/index.ts';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import { formatPlace } from '../../../core/diagnostics.ts';
import { toStateValue } from '../../../core/yare/index.ts';
import {
  EXPLORE_FAILURE_MARK,
  explore,
  ExploreError,
  type ExploreReport,
  failureFileName,
  type Located,
  violationScenario,
} from '../../../tools/authoring/index.ts';
import { loadCartridgeArg } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { readStateFile } from '../state-file.ts';
import { UserError } from '../user-error.ts';

export interface ExploreFlags {
  runs?: string;
  depth?: string;
  seed?: string;
  state?: string;
  json?: boolean;
  writeFailures?: string;
  force?: boolean;
}

/** `--runs 12` as 12; anything but digits is a usage error naming the option. */
function wholeFlag(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw))
    throw new UserError(`--${name} must be a whole number, got '${raw}'`, EXIT.usage);
  return Number(raw);
}

export async function runExploreCommand(cartridgeArg: string, flags: ExploreFlags): Promise<void> {
  try {
    const report = await exploreWith(cartridgeArg, flags);
    process.exitCode = report.violations.length > 0 ? EXIT.user : EXIT.ok;
  } catch (error) {
    if (!flags.json || !(error instanceof UserError)) throw error;
    const kind = error.exitCode === EXIT.usage ? 'usage' : 'cartridge';
    process.stdout.write(`${JSON.stringify({ ok: false, error: { kind, message: error.message } })}\n`);
    process.exitCode = error.exitCode;
  }
}

async function exploreWith(cartridgeArg: string, flags: ExploreFlags): Promise<ExploreReport> {
  const options = {
    runs: wholeFlag('runs', flags.runs),
    depth: wholeFlag('depth', flags.depth),
    seed: wholeFlag('seed', flags.seed),
  };
  const cartridge = await loadCartridgeArg(cartridgeArg);
  // The state file as given (over the defaults), which a written scenario's `state:` repeats.
  const start =
    flags.state === undefined
      ? undefined
      : (toStateValue(readStateFile(flags.state, cartridge.rules)) as Record<string, unknown>);
  let report: ExploreReport;
  try {
    report = await explore(cartridge, {
      ...(options.runs === undefined ? {} : { runs: options.runs }),
      ...(options.depth === undefined ? {} : { depth: options.depth }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(start === undefined ? {} : { start }),
    });
  } catch (error) {
    if (error instanceof ExploreError) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
  const written =
    flags.writeFailures === undefined
      ? []
      : writeFailures(cartridge, report, start, flags.writeFailures, flags.force === true);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ok: report.violations.length === 0, report, written })}\n`);
  } else process.stdout.write(renderReport(report, written));
  return report;
}

/** A file explore wrote before (it begins with the mark): replaced without --force. */
const isExploreFailure = (existing: Buffer): boolean =>
  existing.subarray(0, EXPLORE_FAILURE_MARK.length).toString('utf8') === EXPLORE_FAILURE_MARK;

/**
 * Each violation as a scenario file in `dir`, through the one safe writer (src/adapters/files/safe-write.ts):
 * no link is followed (the folder, or a file in it, can be a link a cartridge shipped), and a file explore did
 * not write is kept unless --force.
 */
function writeFailures(
  cartridge: Cartridge,
  report: ExploreReport,
  start: Record<string, unknown> | undefined,
  dir: string,
  force: boolean,
): string[] {
  if (report.violations.length === 0) return [];
  prepareFolder(dir);
  return report.violations.map((v, i) =>
    writeInside(dir, failureFileName(i, v), violationScenario(cartridge.rules, report, v, start), {
      force,
      owns: isExploreFailure,
    }),
  );
}

function located(items: readonly Located[]): string[] {
  return items.map((l) => `  ${formatPlace(l.place)}: ${l.what}`);
}

/** The report as text: violations first (each with its shrunk steps), then what was never reached. */
export function renderReport(report: ExploreReport, written: readonly string[]): string {
  const out: string[] = [];
  const c = report.coverage;
  out.push(
    `explored ${report.cartridge}: ${report.runs} run${report.runs === 1 ? '' : 's'} of up to ${report.depth} steps, seed ${report.seed}; ${report.stepsPlayed} steps, ${report.eventsRun} events`,
  );
  for (const [i, v] of report.violations.entries()) {
    out.push(
      '',
      `${i + 1}. ${v.kind}: ${v.place === undefined ? '' : `${formatPlace(v.place)}: `}${v.message}`,
    );
    out.push(
      `   shortest sequence (${v.steps.length} step${v.steps.length === 1 ? '' : 's'}, from ${v.originalLength}):`,
    );
    if (v.steps.length === 0) out.push('     (the start state already shows it)');
    for (const step of v.steps) {
      const what =
        step.kind === 'event'
          ? `${step.event} ${JSON.stringify(step.inputs)}`
          : step.kind === 'wait'
            ? `/wait ${step.duration}`
            : `mini-game ${step.result.minigame_id} ${step.result.status}`;
      out.push(`     - ${what} (seed ${step.seed})`);
    }
    if (written[i] !== undefined) out.push(`   written to ${written[i]}`);
  }
  if (report.violationsDropped > 0) out.push('', `${report.violationsDropped} more violations not kept`);
  out.push('', 'coverage:');
  out.push(
    `  events ${c.events.reached}/${c.events.total}, branches ${c.branches.taken}/${c.branches.total}, steps ${c.steps.reached}/${c.steps.total}, notes ${c.notes.shown}/${c.notes.total}, lore ${c.lore.activated}/${c.lore.total}, World Info ${c.worldInfo.activated}/${c.worldInfo.total}`,
  );
  out.push(
    ...located(c.events.missed),
    ...located(c.branches.missed),
    ...located(c.steps.missed),
    ...located(c.notes.missed),
    ...located(c.lore.missed),
    ...c.worldInfo.missed.map((w) => `  world_info.json: ${w.what}`),
  );
  out.push(
    '',
    report.violations.length === 0
      ? 'no violations'
      : `${report.violations.length} violation${report.violations.length === 1 ? '' : 's'}`,
  );
  return `${out.join('\n')}\n`;
}
