// The store a command plays on (`--db`, else MNESOS_DATABASE_URL, else the default SQLite file): a bad URL
// is the user's error, naming where it came from; anything else is the store's own failure.
import { openStore, type Store, StoreInputError } from '../../adapters/store/index.ts';
import { UserError } from './user-error.ts';

export async function openCommandStore(url: string | undefined): Promise<Store> {
  try {
    return await openStore(url);
  } catch (error) {
    if (error instanceof StoreInputError) throw new UserError(`--db / MNESOS_DATABASE_URL: ${error.message}`);
    throw error;
  }
}
