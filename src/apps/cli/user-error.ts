/** A problem the user can fix (bad cartridge, bad input): printed without a stack, exit code 1. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * Errors thrown below the CLI that a user causes and can fix (a port in use, an unreachable database): their
 * message says what is wrong and what to do. Recognised by name, so the CLI's entry does not load the server
 * or the store just to test `instanceof`.
 */
const USER_CAUSED_NAMES: ReadonlySet<string> = new Set([
  'UserError',
  'StartRefused',
  'StoreOpenError',
  'StoreMigrationError',
  'UnsafeWriteError',
]);

/** The message and exit code of an error the user caused, or undefined for anything else (a bug). */
export function userFacing(error: unknown): { message: string; exitCode: number } | undefined {
  if (!(error instanceof Error) || !USER_CAUSED_NAMES.has(error.name)) return undefined;
  const exitCode = error instanceof UserError ? error.exitCode : 1;
  return { message: error.message, exitCode };
}
