/**
 * setupFile of the integration projects: each test file runs on a database of its own, cloned from the run's
 * (tests/support/file-database.ts), so files run in parallel. DATABASE_URL points at it: the harness, loadConfig()
 * and the processes a test starts all use it. Dropped when the file ends.
 */
import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import { cloneRunDatabase } from '../support/file-database';

const database = await cloneRunDatabase(`f${process.pid}_${randomBytes(2).toString('hex')}`);
process.env.DATABASE_URL = database.url;
afterAll(() => database.drop());
