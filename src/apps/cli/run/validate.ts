// The work of `mnesos validate <cartridge> [--json]` (README.md, the command-line contract): exit 0 when the cartridge
// loads, printing any warnings; else exit 1 with one `file:line:col: message` line per error. `--json`
// prints `{"ok","errors":[{"file","line","col","code","message"}],"warnings":[…]}` instead.

import { lintCartridge } from '../../../tools/authoring/lint/index.ts';
import { loadCartridge } from '../../../adapters/files/index.ts';
import { type Diagnostic, formatDiagnostic, sortByPlace } from '../../../core/diagnostics.ts';
import { existsSync } from 'node:fs';
import { cartridgeNotFoundMessage, resolveCartridgePath } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { UserError } from '../user-error.ts';

export interface JsonDiagnostic {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly code: string;
  readonly message: string;
}

/** A diagnostic without a place (none of the loader's have one) gets file "" and line/col 0. */
export function toJsonDiagnostic(d: Diagnostic): JsonDiagnostic {
  return {
    file: d.place?.file ?? '',
    line: d.place?.line ?? 0,
    col: d.place?.col ?? 0,
    code: d.code,
    message: d.message,
  };
}

export async function runValidate(
  cartridgeArg: string,
  flags: { json?: boolean; strict?: boolean },
): Promise<void> {
  const folder = folderOf(cartridgeArg, flags.json === true);
  if (folder === undefined) return;
  const result = await loadCartridge(folder);
  const errors = result.ok ? [] : sortByPlace(result.errors);
  // Lint findings (src/tools/authoring/lint) are warnings; --strict makes any warning a failure.
  const warnings = sortByPlace(
    result.ok ? [...result.warnings, ...lintCartridge(result.cartridge)] : result.warnings,
  );
  const ok = result.ok && !(flags.strict === true && warnings.length > 0);
  if (flags.json) {
    const body = {
      ok,
      errors: errors.map(toJsonDiagnostic),
      warnings: warnings.map(toJsonDiagnostic),
    };
    process.stdout.write(`${JSON.stringify(body)}\n`);
  } else {
    for (const d of errors) process.stdout.write(`${formatDiagnostic(d)}\n`);
    for (const d of warnings) process.stdout.write(`${formatDiagnostic(d)}\n`);
    if (result.ok) {
      const events = result.cartridge.rules.eventNames.length;
      process.stdout.write(
        `ok: ${result.cartridge.name} (${events} event${events === 1 ? '' : 's'}, ` +
          `${warnings.length} warning${warnings.length === 1 ? '' : 's'})\n`,
      );
    } else {
      process.stderr.write(`${errors.length} error${errors.length === 1 ? '' : 's'}\n`);
    }
    if (result.ok && !ok) process.stderr.write('--strict: warnings count as errors\n');
  }
  process.exitCode = ok ? EXIT.ok : EXIT.user;
}

/**
 * A folder path, or a shipped cartridge's name. A bare word that is neither is refused here, listing the
 * shipped cartridges; any other path is passed on so the loader reports it with its place.
 */
function folderOf(arg: string, json: boolean): string | undefined {
  try {
    return resolveCartridgePath(arg);
  } catch {
    if (existsSync(arg) || /[\\/]/.test(arg)) return arg;
  }
  const message = cartridgeNotFoundMessage(arg);
  if (!json) throw new UserError(message);
  const diagnostic = { file: '', line: 0, col: 0, code: 'CART_NOT_FOUND', message };
  process.stdout.write(`${JSON.stringify({ ok: false, errors: [diagnostic], warnings: [] })}\n`);
  process.exitCode = EXIT.user;
  return undefined;
}
