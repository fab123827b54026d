/**
 * The api-client boundary for component tests: `api.get/post/patch/put/delete` answer from canned routes, every
 * call is recorded, a call nobody expected answers 404 (and shows in `calls`). Installed with
 * `vi.mock('<ui>/lib/api-client', ...)` in each test file (see render-app.tsx).
 */
import { ApiError } from '../../../ui/src/lib/api-error';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export interface Call { method: Method; path: string; body?: unknown; query?: Record<string, unknown> }
type Reply = (call: Call) => unknown;
interface Route { method: Method; path: string | RegExp; reply: Reply }

export function createFakeApi() {
  const routes: Route[] = [];
  const calls: Call[] = [];

  async function answer(call: Call): Promise<unknown> {
    calls.push(call);
    // Routes added last win, so a test can override the defaults.
    const route = [...routes].reverse().find((r) => r.method === call.method
      && (typeof r.path === 'string' ? r.path === call.path : r.path.test(call.path)));
    if (!route) throw new ApiError(404, { message: `No canned answer for ${call.method} ${call.path}` });
    return route.reply(call);
  }
  const withQuery = (path: string, options?: { query?: Record<string, unknown> }) => ({ path, query: options?.query });

  return {
    calls,
    on(method: Method, path: string | RegExp, reply: Reply | object) {
      routes.push({ method, path, reply: typeof reply === 'function' ? (reply as Reply) : () => structuredClone(reply) });
    },
    reset() { routes.length = 0; calls.length = 0; },
    callsTo(method: Method, path: string | RegExp) {
      return calls.filter((c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)));
    },
    api: {
      get: (path: string, options?: { query?: Record<string, unknown> }) => answer({ method: 'GET', ...withQuery(path, options) }),
      post: (path: string, body?: unknown) => answer({ method: 'POST', path, body }),
      put: (path: string, body?: unknown) => answer({ method: 'PUT', path, body }),
      patch: (path: string, body?: unknown) => answer({ method: 'PATCH', path, body }),
      delete: (path: string) => answer({ method: 'DELETE', path }),
      blob: async () => new Blob([]),
    },
  };
}

export type FakeApi = ReturnType<typeof createFakeApi>;

/** An error answer as the API sends it (ApiError is what api-client throws). */
export const refuse = (status: number, body: Record<string, unknown>) => () => { throw new ApiError(status, body); };
