import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { PRODUCT_TITLE } from '../../domain';

const API_DOCS_PREFIX = '/api/docs';

/**
 * The OpenAPI 3 document, built from the route schemas (registered before the routes, so it sees them all), at
 * `/api/docs/json`, and Swagger UI at `/api/docs`. Every call needs the bearer token but the public ones
 * (sign-in, health), which say `security: []`.
 */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: `${PRODUCT_TITLE} API`,
        version: '1',
        description: 'Feathers-style REST resources (spec 2 §7). Errors: `{ name, message, code, className, data, errors }`.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'accessToken from POST /api/v1/authentication, or an organisation\'s API key (`coi_…`, POST /api/v1/api-keys)' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: API_DOCS_PREFIX });
}, { name: 'api-docs' });
