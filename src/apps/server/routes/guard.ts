// Runs a route body, turning a SessionError into its HTTP answer.

import { SessionError } from '../../../engine/session/index.ts';
import { fromSessionError } from '../errors.ts';

export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SessionError) throw fromSessionError(error);
    throw error;
  }
}
