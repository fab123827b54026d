/** Temporal client for the API (and tests, bench): one connection per process. */
import { Client, Connection, type ConnectionOptions } from '@temporalio/client';
import { reqIdClientInterceptor } from './command-context';

/**
 * gRPC reconnects with an exponential backoff that grows to 120 s by default: after an hour-long Temporal outage the
 * API would wait up to two minutes more. Capped at 5 s, it is back within seconds of Temporal.
 */
const RECONNECT: ConnectionOptions['channelArgs'] = { 'grpc.initial_reconnect_backoff_ms': 500, 'grpc.max_reconnect_backoff_ms': 5000 };

/**
 * `lazy`: connect on the first call instead of now, so the API starts (and serves sign-in, lists and reads) while
 * Temporal is down; commands then answer 503 until it is back (services/requests/request-workflow-client.ts).
 */
export async function createTemporalClient(address: string, namespace: string, options: { lazy?: boolean } = {}): Promise<Client> {
  const connectionOptions: ConnectionOptions = { address, connectTimeout: '10 seconds', channelArgs: RECONNECT };
  const connection = options.lazy ? Connection.lazy(connectionOptions) : await Connection.connect(connectionOptions);
  // Every start, update and signal carries the reqId of the HTTP call behind it (temporal/command-context.ts).
  return new Client({ connection, namespace, interceptors: { workflow: [reqIdClientInterceptor] } });
}

/** Whether Temporal answers now (its gRPC health service), within `timeoutMs`. */
export async function temporalAnswers(client: Client, timeoutMs = 1500): Promise<boolean> {
  try {
    await client.connection.withDeadline(Date.now() + timeoutMs, () => client.connection.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  }
}
