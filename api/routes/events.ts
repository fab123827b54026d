import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser, requireUser, verifySessionToken } from '../plugins/auth';
import { errorResponses } from '../../contract/error.schema';
import { RequestEvent } from '../../contract/request-events.schema';
import { sessionFromToken } from '../sessions/session-user';

/**
 * `GET api/v1/events`: a server-sent event stream of the changes the caller may see: `event: request`, whose `data`
 * is a RequestEvent (contract/request-events.schema.ts) as JSON. Authorised with the Bearer header like every
 * call (the UI reads the stream with fetch, so the token never sits in a URL). The stream ends when the session does
 * (logout, password change, deactivation: checked at every heartbeat) or the token expires.
 */
const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Comment lines keep proxies from closing an idle stream; each one also re-checks the session.
  const heartbeatMs = app.config.eventsHeartbeatMs;
  app.get('/events', {
    onRequest: requireUser,
    schema: {
      tags: ['events'], summary: 'Live changes of the requests the caller may see (text/event-stream)',
      produces: ['text/event-stream'],
      description: 'Each `event: request` carries one RequestEvent (the 200 schema) as its `data`; `: heartbeat` comments '
        + 'keep the stream open, and `event: session-ended` ends it when the session does.',
      response: { 200: RequestEvent, ...errorResponses(401, 403) },
    },
  }, async (request, reply) => {
    const user = currentUser(request);
    const token = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')![1].trim();
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
    });
    raw.write('retry: 3000\n: connected\n\n');

    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      app.eventStreams.delete(end);
      raw.end();
    };
    const unsubscribe = app.requestEvents.subscribe(user, (event) => {
      if (!ended) raw.write(`event: request\ndata: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(async () => {
      const claims = verifySessionToken(app, token);
      const stillValid = claims && await sessionFromToken(app.orm.em.fork(), claims, app.config).then((u) => u.id === user.id, () => false);
      if (ended) return;
      if (!stillValid) {
        raw.write('event: session-ended\ndata: {}\n\n');
        end();
        return;
      }
      raw.write(': heartbeat\n\n');
    }, heartbeatMs);
    app.eventStreams.add(end);
    raw.on('close', end); // the client went away (the response never finishes by itself)
  });
};

export default eventRoutes;
