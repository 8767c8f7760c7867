// A statement a turn runs every time (the session read, the append's lock and writes), written once with the
// query builder and compiled once per dialect: later uses only put the values in their places. Building and
// compiling a query costs more than SQLite takes to run it (bench/server.ts); the SQL is the builder's own,
// so it cannot drift from the queries written the ordinary way.

import { CompiledQuery, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import type { Database, SqlDialect } from './schema.ts';

/** Where a value goes in the compiled parameters: a named value of the call, or a constant of the query. */
type Slot<V> = { readonly name: keyof V } | { readonly constant: unknown };

interface Compiled<V> {
  readonly sql: string;
  readonly slots: readonly Slot<V>[];
}

/** Builds the query from the values (placeholders while it compiles), for the dialect it compiles for. */
type Build<V, R> = (db: Kysely<Database>, values: V, dialect: SqlDialect) => Compilable<R> | RawBuilder<R>;

/** What stands for a named value while the query compiles; never a value a caller stores (a NUL opens it). */
const placeholder = (name: string): string => `\u0000statement value ${name}\u0000`;

export class Statement<V extends object, R = unknown> {
  readonly #names: readonly (keyof V & string)[];
  readonly #build: Build<V, R>;
  readonly #compiled = new Map<SqlDialect, Compiled<V>>();

  /**
   * `names` lists every value `build` reads (an insert's columns come from the keys of its values, so the
   * placeholders must have them all).
   */
  constructor(names: readonly (keyof V & string)[], build: Build<V, R>) {
    this.#names = names;
    this.#build = build;
  }

  /** The query with `values` in place; `db` compiles it the first time (only its dialect matters). */
  with(db: Kysely<Database>, dialect: SqlDialect, values: V): CompiledQuery<R> {
    let compiled = this.#compiled.get(dialect);
    if (compiled === undefined) {
      compiled = this.#compile(db, dialect);
      this.#compiled.set(dialect, compiled);
    }
    const parameters = compiled.slots.map((slot) => ('name' in slot ? values[slot.name] : slot.constant));
    return CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>;
  }

  #compile(db: Kysely<Database>, dialect: SqlDialect): Compiled<V> {
    const byPlaceholder = new Map<unknown, keyof V>(this.#names.map((name) => [placeholder(name), name]));
    const stand = Object.fromEntries(this.#names.map((name) => [name, placeholder(name)])) as unknown as V;
    // A builder compiles by itself; an `sql` template is given the database to compile with (both take it).
    const query = this.#build(db, stand, dialect) as { compile(db: Kysely<Database>): CompiledQuery<R> };
    const { sql, parameters } = query.compile(db);
    const slots = parameters.map((value): Slot<V> => {
      const name = byPlaceholder.get(value);
      return name === undefined ? { constant: value } : { name };
    });
    const used = new Set(slots.flatMap((slot) => ('name' in slot ? [slot.name] : [])));
    const unused = this.#names.filter((name) => !used.has(name));
    if (unused.length > 0) throw new Error(`statement never uses ${unused.join(', ')}: ${sql}`);
    return { sql, slots };
  }
}
