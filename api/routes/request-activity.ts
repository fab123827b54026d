import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RequestActivitySchema } from '../../db/entities';
import { requireAdmin } from '../plugins/auth';
import { parseFindQuery, queryFieldsOf } from '../query/feathers-query';
import { ActivityRecord } from '../../contract/activity.schema';
import { errorResponses } from '../../contract/error.schema';
import { FindQuery } from '../../contract/find-query.schema';
import { Page } from '../../contract/page.schema';
import { IdParams } from '../../contract/primitives';
import { recordById } from '../../services/requests/record-by-id';

const QUERY_FIELDS = queryFieldsOf(RequestActivitySchema, Object.keys(ActivityRecord.properties));

/** `api/v1/request-activity` (spec 2 §7.10): the audit trail, for administrators. */
const requestActivityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/request-activity', {
    onRequest: requireAdmin,
    schema: {
      tags: ['admin'], summary: 'Audit trail entries (typically `requestId=ID&$sort[date]=-1`)', querystring: FindQuery,
      response: { 200: Page(ActivityRecord), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const params = parseFindQuery(request.query, QUERY_FIELDS);
    const [data, total] = await request.em.findAndCount(RequestActivitySchema, params.where as never, {
      limit: params.limit, offset: params.skip,
      orderBy: (Object.keys(params.orderBy).length ? { ...params.orderBy, id: params.orderBy.id ?? 'desc' } : { date: 'desc', id: 'desc' }) as never,
    });
    return { total, limit: params.limit, skip: params.skip, data };
  });

  app.get('/request-activity/:id', {
    onRequest: requireAdmin,
    schema: { tags: ['admin'], summary: 'An audit trail entry', params: IdParams, response: { 200: ActivityRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => recordById(request.em, RequestActivitySchema, request.params.id));
};

export default requestActivityRoutes;
