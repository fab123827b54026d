/** The use cases' context (services/context.ts) for a signed-in HTTP call: the API is one of the doors that builds it. */
import type { FastifyRequest } from 'fastify';
import type { CommandContext } from '../services/context';
import { currentUser } from './plugins/auth';

/** For an authenticated call (the route's onRequest hook has checked the token). */
export function commandContextOf(request: FastifyRequest): CommandContext {
  const { config, temporal, files } = request.server;
  return {
    em: request.em,
    user: currentUser(request),
    workflows: { temporal, taskQueue: config.taskQueue, answerTimeoutMs: config.workflowAnswerTimeoutMs },
    files,
    clockPolicy: config.clockPolicy,
    quotas: config.quotas,
  };
}
