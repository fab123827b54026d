/**
 * The addresses a registered (password) account may not take: the university's own domains and the admin list
 * (domain/university-addresses.ts says why). Asked at registration and on every email change, before anything is
 * saved or sent; the refusal points to single sign-on.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config/app-config';
import { AdminSchema } from '../../db/entities';
import { isUniversityAddress, UNIVERSITY_ADDRESS_MESSAGE } from '../../domain';
import { invalid } from '../refusals';

export async function assertPasswordAccountAddress(em: EntityManager, config: Pick<AppConfig, 'universityEmailDomains'>, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  if (isUniversityAddress(address, config.universityEmailDomains) || (await em.count(AdminSchema, { email: address })) > 0) {
    throw invalid(UNIVERSITY_ADDRESS_MESSAGE, { email: UNIVERSITY_ADDRESS_MESSAGE }, { reason: 'useSingleSignOn' });
  }
}
