/**
 * Free TCP ports on this host: for tests, the production shape and the worker's private SDK metrics port. A module
 * of its own so the production worker does not bundle the dev server and the CLI build to get one.
 */
import net from 'node:net';

/** A free TCP port on 127.0.0.1 (for tests and experiments). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether `port` can be bound on `host` right now. */
function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * A free TCP port in [from, to): the Temporal server stores its services' membership ports in a `smallint` column
 * (cluster_membership.rpc_port), so they must stay below 32768, where the kernel's own picks (32768+) never are.
 */
export async function freePortInRange(from = 20_000, to = 32_000, host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = from + Math.floor(Math.random() * (to - from));
    if (await canListen(port, host)) return port;
  }
  throw new Error(`No free port between ${from} and ${to} on ${host}`);
}
