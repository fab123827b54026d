import fp from 'fastify-plugin';
import staticFiles from '@fastify/static';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { errorBody } from '../errors';

/** Serves the built UI (ui/dist) and answers index.html for every non-API GET, so client routes work on reload. */
export default fp(async (app) => {
  const root = path.join(app.config.rootDir, 'ui', 'dist');
  const hasUi = existsSync(path.join(root, 'index.html'));
  if (hasUi) await app.register(staticFiles, { root, wildcard: false, index: false });
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && !request.url.startsWith('/api/')) {
      if (hasUi) return reply.type('text/html').sendFile('index.html');
      return reply.code(503).type('text/plain').send('The UI is not built yet: run  npm run build:ui');
    }
    return reply.code(404).send(errorBody(404, `Page not found: ${request.method} ${request.url.split('?')[0]}`));
  });
}, { name: 'static-ui' });
