/**
 * Which waiting requests a change wakes (domain/wake-ups.ts has the rules). Reads PostgreSQL only; the wake-up
 * itself goes through each request's workflow (wake-request.ts).
 */
import type { AppConfig } from '../../config/app-config';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import { PersonSchema, PolicyYearSchema, RequestSchema, type Person, type PolicyYear, type Request } from '../../db/entities';
import {
  coveredPeriod, formatOfficeDate, isActiveInDirectory, officeToday, namesPerson, periodCovered, personalEmployeeId, STATUS, wakeAuditNote, type WakeReason,
} from '../../domain';
import type { WakeOrder, WakeUpActivities } from '../../workflows/wake-up-activities.types';

/** The change came after the request started waiting (a request without the stamp predates it: any change counts). */
const changedSinceWaiting = (request: Request, changedAt: Date) => !request.statusChangedAt || changedAt > request.statusChangedAt;

const order = (request: Request, reason: WakeReason, sourceId: number, detail: string): WakeOrder => ({
  requestId: request.id, requestNumber: request.requestNumber!, reason, sourceId, note: wakeAuditNote(reason, detail),
});

async function policyYearOrders(em: EntityManager, policyId: number | null, timeZone: string): Promise<WakeOrder[]> {
  const waiting = await em.find(RequestSchema, { status: STATUS.pendingNewPolicyYear, requestNumber: { $ne: null } }, { orderBy: { id: 'asc' } });
  if (waiting.length === 0) return [];
  const years = await em.find(PolicyYearSchema, {});
  const today = officeToday(timeZone);
  const orders: WakeOrder[] = [];
  for (const request of waiting) {
    const { from, to } = coveredPeriod(request, today);
    if (!periodCovered(years, from, to)) continue;
    // The cause: the given policy year, or (sweep) the latest-saved one among those covering the dates.
    const overlapping = years.filter((y) => y.startDate.toISOString().slice(0, 10) <= to && y.endDate.toISOString().slice(0, 10) >= from);
    const causes = overlapping.filter((y) => (policyId === null || y.id === policyId) && changedSinceWaiting(request, y.updatedAt));
    const cause = causes.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0] as PolicyYear | undefined;
    if (!cause) continue;
    orders.push(order(request, 'policy-year', cause.id,
      `${formatOfficeDate(cause.startDate, timeZone)} – ${formatOfficeDate(cause.endDate, timeZone)} (${cause.policyNumber})`));
  }
  return orders;
}

/**
 * The directory people who may be the clinician of some waiting request (namesPerson decides): by personal employee
 * id, or, for a request without one, by email or last name. People under a shared IS code are nobody in particular.
 */
async function candidatePeople(em: EntityManager, waiting: Request[], personId: number | null): Promise<Person[]> {
  if (personId !== null) return em.find(PersonSchema, { id: personId });
  const ids = new Set<string>();
  const emails = new Set<string>();
  const lastNames = new Set<string>();
  for (const request of waiting) {
    const id = personalEmployeeId(request.employeeId);
    if (id) { ids.add(id); continue; }
    if (request.email?.trim()) emails.add(request.email.trim().toLowerCase());
    if (request.lastName?.trim()) lastNames.add(request.lastName.trim().toLowerCase());
  }
  // Case-insensitive equality: ilike with its wildcards escaped.
  const byName = [...lastNames].map((lastName) => ({ lastName: { $ilike: lastName.replace(/[\\%_]/g, '\\$&') } }));
  return em.find(PersonSchema, { $or: [{ employeeId: { $in: [...ids] } }, { email: { $in: [...emails] } }, ...byName] });
}

async function employmentOrders(em: EntityManager, personId: number | null): Promise<WakeOrder[]> {
  const waiting = await em.find(RequestSchema, { status: STATUS.pendingEmployment, requestNumber: { $ne: null } }, { orderBy: { id: 'asc' } });
  if (waiting.length === 0) return [];
  const active = (await candidatePeople(em, waiting, personId)).filter(isActiveInDirectory);
  const orders: WakeOrder[] = [];
  for (const request of waiting) {
    const person = active.find((p) => namesPerson(request, p) && changedSinceWaiting(request, p.updatedAt));
    if (person) orders.push(order(request, 'employment', person.id, `${person.firstName} ${person.lastName} (${person.employeeId})`));
  }
  return orders;
}

export function findRequestsToWakeActivity(deps: { orm: Orm; config: Pick<AppConfig, 'clockPolicy'> }): WakeUpActivities['findRequestsToWake'] {
  return async function findRequestsToWake({ cause }) {
    const em = deps.orm.em.fork();
    const timeZone = deps.config.clockPolicy.calendar.timeZone;
    if (cause?.reason === 'policy-year') return policyYearOrders(em, cause.sourceId, timeZone);
    if (cause?.reason === 'employment') return employmentOrders(em, cause.sourceId);
    return [...await policyYearOrders(em, null, timeZone), ...await employmentOrders(em, null)];
  };
}
