import fp from 'fastify-plugin';
import staticFiles from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '../../domain';
import { errorBody } from '../errors';

const attribute = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * index.html naming the office's time zone (every date the UI shows is in it) and its phone and mailbox (help lines,
 * password messages): read by ui/src/lib/office.ts.
 */
function pageWithOffice(html: string, office: { timeZone: string; phone: string; email: string }): string {
  const tags = [
    `<meta name="office-time-zone" content="${attribute(office.timeZone)}" />`,
    `<meta name="office-phone" content="${attribute(office.phone)}" />`,
    `<meta name="office-email" content="${attribute(office.email)}" />`,
  ];
  return html.replace('</head>', `${tags.map((t) => `    ${t}\n`).join('')}  </head>`);
}

/**
 * What the build names by its content (`assets/<name>-<hash>.js`): a changed file gets a new name, so a browser may
 * keep one for a year without asking again. index.html, which names them, is answered `no-cache` below.
 */
const FOREVER = 'public, max-age=31536000, immutable';

/**
 * `/verify` and `/verify/<code>`, and `/renewal-answer/<token>` (ui/src/lib/paths.ts): public pages no search engine
 * should keep (a renewal answer's address carries its token, so it never leaves in a Referer either).
 */
const isVerificationPage = (url: string) => /^\/(verify|renewal-answer)(\/|\?|$)/.test(url);

/** Serves the built UI (ui/dist) and answers index.html for every non-API GET, so client routes work on reload. */
export default fp(async (app) => {
  const root = path.join(app.config.rootDir, 'ui', 'dist');
  const indexFile = path.join(root, 'index.html');
  const hasUi = existsSync(indexFile);
  if (hasUi) {
    const hashedAssets = path.join(root, 'assets') + path.sep;
    await app.register(staticFiles, {
      root, wildcard: false, index: false,
      setHeaders: (reply, file) => { if (file.startsWith(hashedAssets)) reply.header('cache-control', FOREVER); },
    });
  }
  let page: string | null = null;
  let verifyPage: string | null = null;
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && !request.url.startsWith('/api/')) {
      if (hasUi) {
        // Read once per process (the build does not change under a running API).
        page ??= pageWithOffice(readFileSync(indexFile, 'utf8'), {
          timeZone: app.config.clockPolicy.calendar.timeZone, phone: app.config.riskManagementPhone, email: app.config.riskManagementEmail,
        });
        // The public verification pages are for holders, not search engines (the header and the page's own tag).
        if (isVerificationPage(request.url)) {
          verifyPage ??= page.replace('</head>', '    <meta name="robots" content="noindex, nofollow" />\n  </head>');
          return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('x-robots-tag', 'noindex, nofollow')
            .header('referrer-policy', 'no-referrer').send(verifyPage);
        }
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
      }
      return reply.code(503).type('text/plain').send('The UI is not built yet: run  npm run build:ui');
    }
    const route = request.url.split('?')[0];
    // An update of many (spec 2 §7.1: PATCH on a collection with a query) is not served (docs/API.md "Differences
    // from the specification" says why): answered as the refused method it is, on any collection that exists.
    if (request.method === 'PATCH' && app.hasRoute({ method: 'GET', url: route })) {
      return reply.code(405).send(errorBody(405, MESSAGES.multiNotSupported));
    }
    return reply.code(404).send(errorBody(404, `Page not found: ${request.method} ${route}`));
  });
}, { name: 'static-ui' });
