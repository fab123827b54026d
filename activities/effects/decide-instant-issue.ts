/**
 * The request workflow asks, after a submit, whether the request issues itself under the office's rules
 * (services/instant/decide.ts): decided once per key, so a retry or a replay answers what was decided.
 */
import type { Orm } from '../../db/orm';
import type { AppConfig } from '../../config/app-config';
import { decideInstantIssue } from '../../services/instant/decide';
import type { DecideInstantIssueInput, DecideInstantIssueResult } from '../../workflows/request-activities.types';

export function decideInstantIssueActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function decideInstant(input: DecideInstantIssueInput): Promise<DecideInstantIssueResult> {
    const decision = await decideInstantIssue(deps.orm.em.fork(), { ...input, timeZone: deps.config.clockPolicy.calendar.timeZone });
    return { issue: decision.issue, actorName: decision.actorName };
  };
}
