// Resolving and loading the cartridge a command names: a folder path, or the name of a cartridge shipped
// under `cartridges/` (the demo cartridge is the default).

import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Cartridge, loadCartridge } from '../cartridge/index.ts';
import { formatDiagnostic } from '../diagnostics.ts';
import { PROJECT_ROOT } from '../project-root.ts';
import { UserError } from './user-error.ts';

export { PROJECT_ROOT };
export const DEFAULT_CARTRIDGE = 'lanternmere';

export function resolveCartridgePath(arg: string | undefined): string {
  const given = arg ?? DEFAULT_CARTRIDGE;
  if (existsSync(given) && statSync(given).isDirectory()) return resolve(given);
  const bundled = join(PROJECT_ROOT, 'cartridges', given);
  if (existsSync(bundled) && statSync(bundled).isDirectory()) return bundled;
  throw new UserError(`No cartridge folder at '${given}' (and no shipped cartridge of that name).`);
}

/** Loads a cartridge or throws a UserError listing every diagnostic as `file:line:col: message`. */
export async function loadCartridgeArg(arg: string | undefined): Promise<Cartridge> {
  const dir = resolveCartridgePath(arg);
  const result = await loadCartridge(dir);
  for (const w of result.warnings) process.stderr.write(`${formatDiagnostic(w)}\n`);
  if (!result.ok) throw new UserError(result.errors.map(formatDiagnostic).join('\n'));
  return result.cartridge;
}
