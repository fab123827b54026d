/**
 * What a database holds of the SQL functions of db/sql-functions.ts, against today's text: the migration writer
 * (scripts/create-sql-functions-migration.ts) ships the difference, and tests/api/sql-rules.test.ts fails while there
 * is one in a freshly migrated database.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './kysely';
import { SQL_FUNCTIONS, type SqlFunction } from './sql-functions';

/** `pg_get_functiondef` of each function, null for one the database lacks. */
async function definitionsIn(db: Kysely<Database>): Promise<Map<string, string | null>> {
  const { rows } = await sql<{ signature: string; definition: string | null }>`
    select s.signature, pg_get_functiondef(to_regprocedure(s.signature)) as definition
    from unnest(${SQL_FUNCTIONS.map((f) => f.signature)}::text[]) as s(signature)`.execute(db);
  return new Map(rows.map((r) => [r.signature, r.definition]));
}

/** Two definitions alike but for their layout (the text of today is indented as the code around it). */
const sameText = (a: string | null, b: string | null) => a !== null && b !== null && a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

export interface FunctionBehind {
  fn: SqlFunction;
  /** the definition the database holds now (`create or replace …`), null when it has none */
  definition: string | null;
}

class RolledBack extends Error {}

/**
 * The functions whose definition in the database is not today's text. Today's text is created inside a transaction
 * that is rolled back, so that PostgreSQL writes both definitions alike; nothing is changed.
 */
export async function sqlFunctionsBehind(db: Kysely<Database>): Promise<FunctionBehind[]> {
  const now = await definitionsIn(db);
  let today = new Map<string, string | null>();
  await db.transaction().execute(async (trx) => {
    for (const fn of SQL_FUNCTIONS) await sql.raw(fn.text).execute(trx);
    today = await definitionsIn(trx);
    throw new RolledBack();
  }).catch((error: unknown) => {
    if (!(error instanceof RolledBack)) throw error;
  });
  return SQL_FUNCTIONS.filter((fn) => !sameText(now.get(fn.signature) ?? null, today.get(fn.signature) ?? null))
    .map((fn) => ({ fn, definition: now.get(fn.signature) ?? null }));
}

/** Every function, with what the database holds of it now. */
export async function sqlFunctionsNow(db: Kysely<Database>): Promise<FunctionBehind[]> {
  const now = await definitionsIn(db);
  return SQL_FUNCTIONS.map((fn) => ({ fn, definition: now.get(fn.signature) ?? null }));
}
