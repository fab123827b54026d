/**
 * A second database for a test file, beside its own (tests/support/file-database.ts): for a file that runs two
 * portals (a restore drill's source and target) or wants the name to say what it is for. A clone of the run's
 * migrated and seeded database, with the development accounts, numbering its requests from a block of its own.
 */
import { randomBytes } from 'node:crypto';
import { cloneRunDatabase } from './file-database';

export async function ownDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  return cloneRunDatabase(`${name}_${process.pid}_${randomBytes(3).toString('hex')}`);
}
