// The work of `mnesos explore` (see ../commands/explore.ts and docs/explore.md): the options read and
// checked here (so a bad value is a usage error in `--json` too), the exploration run by the pure explorer
// (tools/authoring/explore), its report printed, and with `--write-failures` each shrunk violation
// written as a scenario file.

import { prepareFolder, writeInside } from '../../../adapters/files/index.ts';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import { toStateValue } from '../../../core/yare/index.ts';
import {
  EXPLORE_FAILURE_MARK,
  explore,
  ExploreError,
  type ExploreReport,
  failureFileName,
  renderExploreReport,
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
  } else process.stdout.write(renderExploreReport(report, written));
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
