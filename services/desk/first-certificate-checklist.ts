/** The Admin Dashboard's "Before the first certificate" list from the policy years on record and the settings. */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config/app-config';
import { kysely } from '../../db/kysely';
import { firstCertificateChecklist, officeToday, type FirstCertificateChecklist } from '../../domain';

type ChecklistConfig = Pick<AppConfig, 'riskManagementPhone' | 'riskManagementEmail' | 'publicUrl' | 'officeSamples' | 'clockPolicy'>;

export async function firstCertificateChecklistOf(em: EntityManager, config: ChecklistConfig, now = Date.now()): Promise<FirstCertificateChecklist> {
  const policyYears = await kysely(em).selectFrom('policies')
    .select(['start_date as startDate', 'end_date as endDate', 'policy_number as policyNumber']).orderBy('start_date').execute();
  const timeZone = config.clockPolicy.calendar.timeZone;
  const sample = (name: AppConfig['officeSamples'][number]) => config.officeSamples.includes(name);
  return firstCertificateChecklist({
    policyYears, timeZone, today: officeToday(timeZone, now),
    phone: { value: config.riskManagementPhone, sample: sample('RISK_MANAGEMENT_PHONE') },
    mailbox: { value: config.riskManagementEmail, sample: sample('RISK_MANAGEMENT_EMAIL') },
    portalAddress: { value: config.publicUrl, sample: sample('PUBLIC_URL') },
  });
}
