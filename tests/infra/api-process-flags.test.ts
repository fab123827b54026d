/**
 * Every production path starts the API with the same memory settings (config/api-process.ts; docs/PROCESSES.md
 * "Memory"): the image's default command, the compose file's `api` service and the production shape, which the
 * benches measure. A path that drifts would run an API whose peak nobody measured. The worker keeps Node's flags.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS, API_PROCESS_ENV } from '../../config/api-process';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const expectedCommand = ['node', ...API_NODE_FLAGS, '--enable-source-maps', 'dist/server.js'];

type Service = { command?: string[]; environment?: Record<string, string> };
const compose = parse(read('docker-compose.yml')) as { services: Record<string, Service> };

describe('the API process in production', () => {
  it('bounds the young generation (the old one stays uncapped: a hard limit would end the process)', () => {
    expect(API_NODE_FLAGS.some((flag) => /^--max-semi-space-size=\d+$/.test(flag))).toBe(true);
  });

  it('is the image\'s default command, with those flags', () => {
    const runtime = read('Dockerfile').split(/^FROM /m).at(-1)!;
    const cmd = /^CMD (\[.*\])$/m.exec(runtime);
    expect(cmd, 'the runtime stage has a CMD').not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(expectedCommand);
    for (const [name, value] of Object.entries(API_PROCESS_ENV)) expect(runtime).toMatch(new RegExp(`\\b${name}=${value}\\b`));
  });

  it('is the compose file\'s api service, with those flags and the image\'s environment; the worker has no flags', () => {
    expect(compose.services.api.command).toEqual(expectedCommand);
    for (const name of Object.keys(API_PROCESS_ENV)) expect(compose.services.api.environment?.[name], `compose overrides ${name}`).toBeUndefined();
    for (const flag of API_NODE_FLAGS) expect(compose.services.worker.command ?? []).not.toContain(flag);
  });

  it('is how the production shape and the benches start it', () => {
    expect(read('devtools/production-shape.ts')).toMatch(/API_NODE_FLAGS/);
    expect(read('bench/api-process.ts')).toMatch(/API_NODE_FLAGS/);
  });
});
