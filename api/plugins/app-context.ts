/** Typed decorators of the app: what every route can reach. */
import type { ApiKeyCaller } from '../sessions/api-key-session';
import type { Client } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import type { DocumentFiles } from '../../storage/document-files';
import type { SessionUser } from '../../contract/session-user.schema';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    orm: Orm;
    temporal: Client;
    files: DocumentFiles;
  }
  interface FastifyRequest {
    em: EntityManager;
    sessionUser: SessionUser | null;
    /** the API key the call came with, once it was let through (null for a person's session) */
    apiKey: ApiKeyCaller | null;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; sv: number };
  }
}
