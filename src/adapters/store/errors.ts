// Errors the store throws. Expected outcomes (conflict, not found, name taken) are returned as values;
// only bad input and database failures are thrown.

/** A caller passed a value the store refuses; `place` names the argument (`appendTurn.state`). */
export class StoreInputError extends Error {
  constructor(
    readonly place: string,
    message: string,
  ) {
    super(`${place}: ${message}`);
    this.name = 'StoreInputError';
  }
}

/** The database holds a schema this build does not know, or the migration list is malformed. */
export class StoreMigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreMigrationError';
  }
}

/** Unique-constraint violation on either database (SQLite `SQLITE_CONSTRAINT_UNIQUE`/PK, PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Foreign-key violation (SQLite `SQLITE_CONSTRAINT_FOREIGNKEY`, PostgreSQL 23503): a referenced row was
 * deleted between the repository's existence check and its insert, by another connection.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
