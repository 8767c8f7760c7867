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
