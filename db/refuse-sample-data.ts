/** Entry points' guard: a production API or worker exits before serving anything when the database holds sample data. */
import type { Orm } from './orm';
import { samplePolicyYearsRefusal } from './sample-policy-years';

export async function refuseSampleData(orm: Orm, production: boolean, close: () => Promise<void> = () => orm.close()): Promise<void> {
  const refusal = await samplePolicyYearsRefusal(orm.em.fork() as never, production);
  if (!refusal) return;
  console.error(refusal);
  await close();
  process.exit(1);
}
