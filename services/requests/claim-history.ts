/**
 * Claim history (spec 2 §7.6): the claim search over the CS-STARS data (last and first name combined with or/and,
 * report date within the request's dates, sorted by names then date) and the links of a credentialing request,
 * replaced as a whole in one transaction (one placeholder entry when no claim is selected).
 */
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { isFinished, officeDayAfter, officeDayStart, type RequestStatus } from '../../domain';
import { ClaimDataSchema, ClaimHistorySchema, RequestSchema, type ClaimHistory } from '../../db/entities';
import { invalid, notFound } from '../refusals';

const PLACEHOLDER_PHYSICIAN = 'No claims found';

interface ClaimSearch { lastName?: string; firstName?: string; combination?: 'or' | 'and'; dateFrom?: string; dateTo?: string; requestId?: number; limit?: number }

/** `timeZone`: the office's, whose days the report-date range means. */
export async function searchClaims(em: EntityManager, q: ClaimSearch, timeZone: string) {
  const last = q.lastName?.trim();
  const first = q.firstName?.trim();
  if (!last && !first) throw invalid('Enter a last name or a first name', { lastName: 'Enter a last name or a first name' });
  let from = q.dateFrom?.slice(0, 10);
  let to = q.dateTo?.slice(0, 10);
  if (q.requestId) {
    const request = await em.findOne(RequestSchema, q.requestId);
    if (!request) throw notFound('Request not found');
    from ??= request.dateFrom?.toISOString().slice(0, 10);
    to ??= request.dateTo?.toISOString().slice(0, 10);
  }
  const names: Record<string, unknown>[] = [];
  if (last) names.push({ physicianLastName: { $ilike: last } });
  if (first) names.push({ physicianFirstName: { $ilike: first } });
  const where: Record<string, unknown> = { [q.combination === 'and' ? '$and' : '$or']: names };
  const reportDate: Record<string, Date> = {};
  if (from) reportDate.$gte = officeDayStart(from, timeZone);
  if (to) reportDate.$lt = officeDayAfter(to, timeZone);
  if (Object.keys(reportDate).length) where.reportDate = reportDate;
  const data = await em.find(ClaimDataSchema, where as never, {
    orderBy: { physicianLastName: 'asc', physicianFirstName: 'asc', reportDate: 'asc', id: 'asc' } as never,
    limit: Math.min(q.limit ?? 500, 1000),
  });
  return { total: data.length, limit: Math.min(q.limit ?? 500, 1000), skip: 0, data };
}

/** Replaces the request's links with the chosen claims (or one placeholder); answers the new links. */
export async function linkClaims(em: EntityManager, requestId: number, claimIds: number[]): Promise<ClaimHistory[]> {
  return em.transactional(async (tx) => {
    const request = await tx.findOne(RequestSchema, requestId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!request) throw notFound('Request not found');
    if (request.requestType !== 'credentialing') throw invalid('Claim history belongs to Claim History and Insurance Verification requests');
    if (isFinished(request.status as RequestStatus)) throw invalid('The claim history of a completed request can no longer be changed');
    const unique = [...new Set(claimIds)];
    const claims = unique.length ? await tx.find(ClaimDataSchema, { id: { $in: unique } }) : [];
    if (claims.length !== unique.length) throw invalid('A selected claim no longer exists; search again');
    await tx.nativeDelete(ClaimHistorySchema, { requestId });
    if (!claims.length) {
      tx.create(ClaimHistorySchema, { requestId, claimId: null, physician: PLACEHOLDER_PHYSICIAN });
    }
    for (const c of claims) {
      tx.create(ClaimHistorySchema, {
        requestId, claimId: c.id,
        physician: [c.physicianFirstName, c.physicianMiddleInitial, c.physicianLastName].filter(Boolean).join(' '),
        physicianLastName: c.physicianLastName, physicianFirstName: c.physicianFirstName,
        physicianMiddleInitial: c.physicianMiddleInitial || null, involvement: c.involvement, claimNumber: c.claimNumber,
        reportDate: c.reportDate, indemnityPaid: String(c.indemnityPaid),
      });
    }
    await tx.flush();
    return tx.find(ClaimHistorySchema, { requestId }, { orderBy: { reportDate: 'asc', id: 'asc' } });
  });
}

export async function unlinkClaims(em: EntityManager, requestId: number): Promise<number> {
  return em.nativeDelete(ClaimHistorySchema, { requestId });
}
