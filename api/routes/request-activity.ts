import { wrap } from '@mikro-orm/core';
import type { FastifyInstance } from 'fastify';
import { RequestActivitySchema } from '../../db/entities';
import { requireAdmin } from '../plugins/auth';
import { parseFindQuery, queryFieldsOf } from '../query/feathers-query';

const FIELDS = queryFieldsOf(RequestActivitySchema, ['id', 'requestId', 'date', 'activityType', 'activityText', 'performedBy', 'recipients', 'channel', 'createdAt']);

/** `api/v1/request-activity` (spec 2 §7.10): the audit trail, for administrators. */
export default async function requestActivityRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Record<string, unknown> }>('/request-activity', { preHandler: requireAdmin }, async (request) => {
    const params = parseFindQuery(request.query, FIELDS);
    const [rows, total] = await request.em.findAndCount(RequestActivitySchema, params.where as never, {
      limit: params.limit, offset: params.skip,
      orderBy: (Object.keys(params.orderBy).length ? { ...params.orderBy, id: params.orderBy.id ?? 'desc' } : { date: 'desc', id: 'desc' }) as never,
    });
    const data = rows.map((row) => {
      const { idempotencyKey: _key, ...plain } = wrap(row).toObject() as Record<string, unknown>;
      return plain;
    });
    return { total, limit: params.limit, skip: params.skip, data };
  });
}
