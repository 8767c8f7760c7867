// The work of `mnesos explore` (see ../commands/explore.ts and docs/explore.md): the options read and
// checked here (so a bad value is a usage error in `--json` too), the exploration run by the pure explorer
// (tools/authoring/explore), its report printed, and with `--write-failures` each shrunk violation
// written as a scenario file.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import { toStateValue } from '../../../core/yare/index.ts';
import {
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
    flags.writeFailures === undefined ? [] : writeFailures(cartridge, report, start, flags.writeFailures);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ok: report.violations.length === 0, report, written })}\n`);
  } else process.stdout.write(renderExploreReport(report, written));
  return report;
}

function writeFailures(
  cartridge: Cartridge,
  report: ExploreReport,
  start: Record<string, unknown> | undefined,
  dir: string,
): string[] {
  if (report.violations.length === 0) return [];
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new UserError(`--write-failures ${dir}: cannot make the folder (${(error as Error).message})`);
  }
  return report.violations.map((v, i) => {
    const path = join(dir, failureFileName(i, v));
    try {
      writeFileSync(path, violationScenario(cartridge.rules, report, v, start));
    } catch (error) {
      throw new UserError(`--write-failures: cannot write ${path} (${(error as Error).message})`);
    }
    return path;
  });
}
