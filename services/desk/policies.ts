/**
 * Policy years (spec 1 §5): dates typed as mm/dd/yyyy and stored as that day at 11:00 UTC, money as USD with two
 * decimals, and no two policy years overlapping (checked under an advisory lock, so two saves cannot race).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { dayToServerIso, DEFAULT_OFFICE_TIME_ZONE, formatOfficeDate, policyOverlapMessage, validatePolicy, type PolicyInput } from '../../domain';
import { PolicyYearSchema, type PolicyYear } from '../../db/entities';
import { kysely } from '../../db/kysely';
import { invalid, notFound } from '../refusals';
import type { WakeUps } from '../requests/wake-ups';

async function assertNoOverlap(em: EntityManager, startDay: string, endDay: string, exceptId?: number) {
  await sql`select pg_advisory_xact_lock(hashtext(${'policies'}))`.execute(kysely(em));
  const start = new Date(dayToServerIso(startDay));
  const end = new Date(dayToServerIso(endDay));
  const other = await em.findOne(PolicyYearSchema, {
    startDate: { $lte: end }, endDate: { $gte: start }, ...(exceptId ? { id: { $ne: exceptId } } : {}),
  });
  if (other) {
    const message = policyOverlapMessage(formatOfficeDate(other.startDate, DEFAULT_OFFICE_TIME_ZONE), formatOfficeDate(other.endDate, DEFAULT_OFFICE_TIME_ZONE));
    throw invalid(message, { startDate: message });
  }
}

function valuesOf(input: PolicyInput) {
  const { errors, values } = validatePolicy(input);
  if (!values) throw invalid(Object.values(errors)[0], errors);
  return values;
}

export const listPolicies = (em: EntityManager) => em.find(PolicyYearSchema, {}, { orderBy: { startDate: 'desc' } });

/** A saved policy year may cover the dates of requests waiting in Pending New Policy Year: they wake. */
const wakeWaitingRequests = (wakeUps: WakeUps, policy: PolicyYear) => wakeUps.start({ reason: 'policy-year', sourceId: policy.id }, policy.updatedAt);

export async function createPolicy(em: EntityManager, input: PolicyInput, wakeUps: WakeUps): Promise<PolicyYear> {
  const v = valuesOf(input);
  const policy = await em.transactional(async (tx) => {
    await assertNoOverlap(tx, v.startDay, v.endDay);
    return tx.create(PolicyYearSchema, {
      startDate: new Date(dayToServerIso(v.startDay)), endDate: new Date(dayToServerIso(v.endDay)),
      policyNumber: v.policyNumber, limitClaim: v.limitClaim, annualAggregate: v.annualAggregate,
    });
  });
  await wakeWaitingRequests(wakeUps, policy);
  return policy;
}

export async function updatePolicy(em: EntityManager, id: number, input: PolicyInput, wakeUps: WakeUps): Promise<PolicyYear> {
  const policy = await em.transactional(async (tx) => {
    const policy = await tx.findOne(PolicyYearSchema, id);
    if (!policy) throw notFound('Policy not found');
    const merged: PolicyInput = {
      startDate: input.startDate ?? policy.startDate.toISOString(), endDate: input.endDate ?? policy.endDate.toISOString(),
      policyNumber: input.policyNumber ?? policy.policyNumber, limitClaim: input.limitClaim ?? policy.limitClaim,
      annualAggregate: input.annualAggregate ?? policy.annualAggregate,
    };
    const v = valuesOf(merged);
    await assertNoOverlap(tx, v.startDay, v.endDay, id);
    tx.assign(policy, {
      startDate: new Date(dayToServerIso(v.startDay)), endDate: new Date(dayToServerIso(v.endDay)),
      policyNumber: v.policyNumber, limitClaim: v.limitClaim, annualAggregate: v.annualAggregate,
    });
    return policy;
  });
  await wakeWaitingRequests(wakeUps, policy);
  return policy;
}

export async function deletePolicy(em: EntityManager, id: number): Promise<PolicyYear> {
  const policy = await em.findOne(PolicyYearSchema, id);
  if (!policy) throw notFound('Policy not found');
  em.remove(policy);
  await em.flush();
  return policy;
}
