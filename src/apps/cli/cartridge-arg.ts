// Resolving and loading the cartridge a command names: a folder path, or the name of a cartridge shipped
// under `cartridges/` (the demo cartridge is the default).

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Cartridge, loadCartridge } from '../../core/cartridge/index.ts';
import { formatDiagnostic } from '../../core/diagnostics.ts';
import { PROJECT_ROOT } from '../../adapters/project-root.ts';
import { UserError } from './user-error.ts';

export { PROJECT_ROOT };
export const DEFAULT_CARTRIDGE = 'lanternmere';

/** The names of the cartridges shipped with mnesos (folders under `cartridges/`), sorted. */
export function shippedCartridges(): string[] {
  const dir = join(PROJECT_ROOT, 'cartridges');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'yare.yaml')))
    .map((entry) => entry.name)
    .sort();
}

/** Why `given` names no cartridge: it is a file, or neither a folder nor a shipped cartridge's name. */
export function cartridgeNotFoundMessage(given: string): string {
  if (existsSync(given) && !statSync(given).isDirectory()) {
    return `'${given}' is a file, not a cartridge folder: give the folder that holds its yare.yaml.`;
  }
  const shipped = shippedCartridges();
  return (
    `No cartridge folder at '${given}', and no shipped cartridge of that name. ` +
    `Shipped cartridges: ${shipped.length === 0 ? 'none' : shipped.join(', ')}.`
  );
}

export function resolveCartridgePath(arg: string | undefined): string {
  const given = arg ?? DEFAULT_CARTRIDGE;
  if (existsSync(given) && statSync(given).isDirectory()) return resolve(given);
  const bundled = join(PROJECT_ROOT, 'cartridges', given);
  if (!/[\\/]/.test(given) && existsSync(bundled) && statSync(bundled).isDirectory()) return bundled;
  throw new UserError(cartridgeNotFoundMessage(given));
}

/** Loads a cartridge or throws a UserError listing every diagnostic as `file:line:col: message`. */
export async function loadCartridgeArg(arg: string | undefined): Promise<Cartridge> {
  const dir = resolveCartridgePath(arg);
  const result = await loadCartridge(dir);
  for (const w of result.warnings) process.stderr.write(`${formatDiagnostic(w)}\n`);
  if (!result.ok) throw new UserError(result.errors.map(formatDiagnostic).join('\n'));
  return result.cartridge;
}
