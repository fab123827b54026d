/**
 * `GET /metrics` in Prometheus's text format on a port of its own: the API and the worker each
 * serve theirs (METRICS_PORT), apart from the port users reach. `extra` adds text scraped from elsewhere (the worker
 * appends the Temporal SDK's own metrics, which its core runtime serves on a private port).
 */
import http from 'node:http';
import type { Registry } from 'prom-client';

export interface MetricsServer { url: string; close(): Promise<void> }

export async function startMetricsServer(registry: Registry, host: string, port: number, extra: () => Promise<string> = async () => ''): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    if (request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    Promise.all([registry.metrics(), extra().catch(() => '')]).then(([own, more]) => {
      response.writeHead(200, { 'content-type': registry.contentType }).end(`${own}\n${more}`);
    }, (error: Error) => response.writeHead(500).end(error.message));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve()));
  const { port: bound } = server.address() as { port: number };
  return { url: `http://${host}:${bound}/metrics`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
