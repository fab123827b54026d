/** Temporal client for the API (and tests, bench): one connection per process. */
import { Client, Connection } from '@temporalio/client';

export async function createTemporalClient(address: string, namespace: string): Promise<Client> {
  const connection = await Connection.connect({ address, connectTimeout: '10 seconds' });
  return new Client({ connection, namespace });
}
