// The work of `mnesos test <cartridge> [--bless] [--filter TEXT] [--json]` (see ../commands/test.ts).

import { runSuite, scenarioFiles, type SuiteCase } from '../../../tools/authoring/index.ts';
import { formatDiagnostic, formatPlace } from '../../../core/diagnostics.ts';
import { loadCartridgeArg, resolveCartridgePath } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { UserError } from '../user-error.ts';

export interface TestFlags {
  bless?: boolean;
  force?: boolean;
  filter?: string;
  json?: boolean;
}

export async function runTestCommand(cartridgeArg: string, flags: TestFlags): Promise<void> {
  const dir = resolveCartridgePath(cartridgeArg);
  const cartridge = await loadCartridgeArg(dir);
  if (scenarioFiles(dir).length === 0)
    throw new UserError(
      `No scenario files in ${dir}/tests (tests/*.yaml). docs/authoring.md shows how to write one.`,
    );
  const result = await runSuite(dir, cartridge, {
    bless: flags.bless,
    filter: flags.filter,
    force: flags.force,
  });
  if (result.cases.length === 0 && result.fileErrors.length === 0)
    throw new UserError(`No scenario or property matches --filter '${flags.filter ?? ''}'.`);
  const failed = result.cases.filter((c) => c.failures.length > 0);
  const ok = failed.length === 0 && result.fileErrors.length === 0;
  if (flags.json) printSuiteJson(result, ok);
  else printSuiteText(result, failed.length, flags.filter);
  process.exitCode = ok ? EXIT.ok : EXIT.user;
}

type SuiteResult = Awaited<ReturnType<typeof runSuite>>;

/** One JSON document: the scenario files' problems, each case with its failures and diff, events never run. */
function printSuiteJson(result: SuiteResult, ok: boolean): void {
  const body = {
    ok,
    fileErrors: result.fileErrors.map((d) => ({
      at: formatPlace(d.place),
      code: d.code,
      message: d.message,
    })),
    cases: result.cases.map((c) => ({
      file: c.file,
      name: c.name,
      kind: c.kind,
      ok: c.failures.length === 0,
      transcript: c.transcriptStatus,
      failures: c.failures.map((f) => ({ ...f.place, message: f.message })),
      ...(c.diff !== undefined ? { diff: c.diff } : {}),
    })),
    eventsNotRun: result.eventsNotRun,
  };
  process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
}

/** Each problem and case, the tally, and (unfiltered) the events no step ran. */
function printSuiteText(result: SuiteResult, failed: number, filter: string | undefined): void {
  for (const d of result.fileErrors) process.stdout.write(`${formatDiagnostic(d)}\n`);
  for (const c of result.cases) process.stdout.write(renderCase(c));
  const passed = result.cases.length - failed;
  const blessed = result.cases.filter((c) => c.transcriptStatus === 'blessed').length;
  process.stdout.write(
    `\n${passed} passed, ${failed} failed` +
      (blessed > 0 ? `, ${blessed} transcript${blessed === 1 ? '' : 's'} blessed` : '') +
      (result.fileErrors.length > 0 ? `, ${result.fileErrors.length} problem(s) in scenario files` : '') +
      '\n',
  );
  if (filter === undefined && result.eventsNotRun.length > 0)
    process.stdout.write(`events no step ran: ${result.eventsNotRun.join(', ')}\n`);
}

function renderCase(c: SuiteCase): string {
  const label = c.kind === 'property' ? 'property ' : '';
  const mark = c.failures.length === 0 ? 'PASS' : 'FAIL';
  const suffix = c.transcriptStatus === 'blessed' ? ' (transcript blessed)' : '';
  let out = `${mark} ${c.file} › ${label}${c.name}${suffix}\n`;
  for (const f of c.failures) out += `  ${formatPlace(f.place)}: ${f.message}\n`;
  if (c.diff !== undefined) {
    out += '  --- blessed\n  +++ observed\n';
    for (const line of c.diff.split('\n')) out += `  ${line}\n`;
  }
  return out;
}
