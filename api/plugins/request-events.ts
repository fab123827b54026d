import fp from 'fastify-plugin';
import { RequestEventHub } from '../live/request-events';

declare module 'fastify' {
  interface FastifyInstance {
    requestEvents: RequestEventHub;
    /** open event streams, ended before the server closes (an open stream would hold `close()` forever) */
    eventStreams: Set<() => void>;
  }
}

/** One LISTEN connection per API process (api/live/request-events.ts), opened when the app is ready. */
export default fp(async (app) => {
  const hub = new RequestEventHub(app.config.databaseUrl, app.log);
  app.decorate('requestEvents', hub);
  app.decorate('eventStreams', new Set<() => void>());
  app.addHook('onReady', async () => { await hub.start(); });
  app.addHook('preClose', async () => { for (const end of [...app.eventStreams]) end(); });
  app.addHook('onClose', async () => { await hub.stop(); });
}, { name: 'request-events' });
