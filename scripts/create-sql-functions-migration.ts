/**
 * `npm run migration:sql-functions -- <name> [--all] [--why "<what changed and why>"]`: a migration that ships today's
 * text of the SQL functions (db/sql-functions.ts) to every database. It migrates a scratch database, compares what
 * that holds with today's text (db/sql-function-definitions.ts) and writes db/migrations/Migration<stamp>_<name>.ts
 * with the functions that differ (every function with --all), their previous definitions in `down`. Review and
 * commit it like any migration; tests/api/sql-rules.test.ts fails until it exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dropDatabase, ensureDatabase } from '../db/database';
import { kysely } from '../db/kysely';
import { createOrm } from '../db/orm';
import { sqlFunctionsBehind, sqlFunctionsNow, type FunctionBehind } from '../db/sql-function-definitions';

const MIGRATIONS_DIR = fileURLToPath(new URL('../db/migrations', import.meta.url));

/** A TypeScript template literal holding `text` as it is. */
export const templateLiteral = (text: string) => `\`${text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;

/** The migration's stamp: now (UTC, yyyymmddhhmmss), or just after the last migration's when that is later. */
function nextStamp(now = new Date()): string {
  const latest = fs.readdirSync(MIGRATIONS_DIR).map((f) => /^Migration(\d{14})_/.exec(f)?.[1]).filter(Boolean).sort().at(-1) ?? '0';
  const current = now.toISOString().replace(/\D/g, '').slice(0, 14);
  return current > latest ? current : String(BigInt(latest) + 1n);
}

/** `text` in lines of at most 114 characters (a comment's lines, after ` * `). */
function wrapped(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    if (lines.length && `${lines.at(-1)} ${word}`.length <= 114) lines[lines.length - 1] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * The migration's source: today's text of the functions of `up`; in `down`, what the database held of those of `down`
 * (a function it lacked is dropped).
 */
export function migrationSource(className: string, up: FunctionBehind[], down: FunctionBehind[], why: string | null, day: string): string {
  const names = up.map((c) => `\`${c.fn.name}\``).join(', ');
  const upSql = up.flatMap(({ fn, definition }) => [
    `    this.addSql(${templateLiteral(fn.text)});`,
    // A new owner's function: only the runtime role may call it (db/least-privilege-role.ts grants it).
    ...(fn.ownerOnly && definition === null ? [`    this.addSql(${templateLiteral(`revoke execute on function ${fn.signature} from public;`)});`] : []),
  ]);
  const downSql = [...down].reverse().map(({ fn, definition }) =>
    `    this.addSql(${templateLiteral(definition ?? `drop function if exists ${fn.signature};`)});`);
  const comment = [
    ...wrapped(`The SQL functions ${names} as db/sql-functions.ts renders them on ${day}: written by \`npm run migration:sql-functions\`.`
      + ' Change the functions there, never here: a migration keeps the text it was written with, so history replays as it ran.'),
    ...(why ? ['', ...why.split('\n')] : []),
  ];
  return `import { Migration } from '@mikro-orm/migrations';

/**
${comment.map((line) => ` *${line ? ` ${line}` : ''}`).join('\n')}
 */
export class ${className} extends Migration {

  override name = '${className}';

  override up(): void | Promise<void> {
${upSql.join('\n')}
  }

  override down(): void | Promise<void> {
    // The definitions the database held before, of the functions whose text this changes.
${downSql.join('\n')}
  }
}
`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const all = args.includes('--all');
  const whyAt = args.indexOf('--why');
  const why = whyAt >= 0 ? args[whyAt + 1] ?? null : null;
  const name = args.find((a, i) => !a.startsWith('--') && i !== whyAt + 1);
  if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error('Usage: npm run migration:sql-functions -- <name in snake_case> [--all] [--why "<text>"]');

  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/coi_portal';
  const scratch = base.replace(/\/[^/]+$/, `/coi_sql_functions_${process.pid}`);
  await ensureDatabase(scratch);
  const orm = await createOrm(scratch);
  try {
    await orm.migrator.up();
    const db = kysely(orm.em.fork());
    const behind = await sqlFunctionsBehind(db);
    const up = all ? await sqlFunctionsNow(db) : behind;
    if (!up.length || (!behind.length && !all)) {
      console.log('no changes: every database migrated to the end holds today\'s text');
      return;
    }
    const stamp = nextStamp();
    const className = `Migration${stamp}_${name}`;
    const file = path.join(MIGRATIONS_DIR, `${className}.ts`);
    fs.writeFileSync(file, migrationSource(className, up, behind, why, new Date().toISOString().slice(0, 10)));
    console.log(`wrote ${path.relative(process.cwd(), file)}: ${up.map((c) => c.fn.name).join(', ')} (${behind.length} of them changed)`);
  } finally {
    await orm.close();
    await dropDatabase(scratch);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
