/**
 * The sample policy years an earlier development seed put in a database (db/seed-data.ts samplePolicyYear): their
 * numbers and limits are made up, so a production portal must never print them on a certificate or letter. A row is a
 * sample only when all five of its fields are the generated ones: a year the office typed in is never taken for one.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { PolicyYearSchema, type PolicyYear } from './entities';
import { SAMPLE_POLICY_NUMBER, samplePolicyYear } from './seed-data';

type PolicyFields = Pick<PolicyYear, 'startDate' | 'endDate' | 'policyNumber' | 'limitClaim' | 'annualAggregate'>;

function isSamplePolicyYear(row: PolicyFields): boolean {
  const match = SAMPLE_POLICY_NUMBER.exec(row.policyNumber);
  if (!match) return false;
  const sample = samplePolicyYear(Number(match[1]));
  return sample.policyNumber === row.policyNumber
    && sample.startDate.getTime() === new Date(row.startDate).getTime()
    && sample.endDate.getTime() === new Date(row.endDate).getTime()
    && Number(sample.limitClaim) === Number(row.limitClaim)
    && Number(sample.annualAggregate) === Number(row.annualAggregate);
}

export async function findSamplePolicyYears(em: EntityManager): Promise<PolicyYear[]> {
  const candidates = await em.find(PolicyYearSchema, { policyNumber: { $like: 'UHS-PL-%' } }, { orderBy: { startDate: 'asc' } });
  return candidates.filter(isSamplePolicyYear);
}

/** Deletes the sample years (nothing references a policy row: letters keep a copy in their snapshot). */
export async function removeSamplePolicyYears(em: EntityManager): Promise<PolicyYear[]> {
  const samples = await findSamplePolicyYears(em);
  if (samples.length) await em.nativeDelete(PolicyYearSchema, { id: { $in: samples.map((s) => s.id) } });
  return samples;
}

/** The command that removes them, in development and in the image. */
const REMOVE_SAMPLE_POLICY_YEARS_COMMAND = 'node dist/admin.js remove-sample-policy-years  (npm run admin -- remove-sample-policy-years from a checkout)';

/** What to tell an operator whose database holds sample years. */
export const samplePolicyYearsFound = (samples: readonly PolicyFields[]): string =>
  `This database holds ${samples.length} sample polic${samples.length === 1 ? 'y year' : 'y years'} from a development seed `
  + `(${samples[0].policyNumber}${samples.length > 1 ? ` … ${samples.at(-1)!.policyNumber}` : ''}): their numbers and limits are made up, `
  + 'and certificates and letters would print them. Remove them with  ' + REMOVE_SAMPLE_POLICY_YEARS_COMMAND
  + ', then enter the real policy years under Manage > Policies.';

/**
 * Why a production API or worker must not start on this database, or null. Sample years refuse the start rather than
 * warn (a warning in the migrate log, as for the development accounts, is easy to miss): one
 * approval would print their numbers on a certificate sent to a hospital, which no later fix can recall.
 */
export async function samplePolicyYearsRefusal(em: EntityManager, production: boolean): Promise<string | null> {
  if (!production) return null;
  const samples = await findSamplePolicyYears(em);
  return samples.length ? `Refusing to start with NODE_ENV=production: ${samplePolicyYearsFound(samples)}` : null;
}
