/**
 * How an API process is started in production: the same flags in the image's default command (Dockerfile), the
 * compose file's `api` service, the production shape (devtools/production-shape.ts) and the benches
 * (bench/api-process.ts); tests/infra/api-process-flags.test.ts checks that the files agree with this one.
 * Why these values: docs/PROCESSES.md "Memory".
 */
export const API_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

/**
 * Environment of every portal process in production (the image sets it for all of them, so the production shape
 * does too): glibc's malloc keeps two arenas instead of eight per core, each holding freed memory of its own.
 */
export const API_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
