/**
 * The API's connection to Temporal: connected lazily and re-tried, so the API serves (and reports
 * Temporal DOWN on the health endpoint) while the server is unreachable. The connection's options (TLS,
 * mTLS, API key) come from server/temporal-connection.ts; a TLS setting that cannot work stops the API at
 * start instead (api/server.ts).
 */
import { Client, Connection } from '@temporalio/client';
import { requestIdInterceptors } from '../server/temporal-context';
import type { TemporalConnectOptions } from '../server/temporal-connection';

export interface TemporalGateway {
  client(): Promise<Client>;
  isUp(): Promise<boolean>;
  close(): Promise<void>;
}

export function createTemporalGateway(options: TemporalConnectOptions, namespace: string): TemporalGateway {
  let connecting: Promise<Connection> | null = null;
  let connection: Connection | null = null;

  const connect = async (): Promise<Connection> => {
    if (connection) return connection;
    if (!connecting) {
      connecting = Connection.connect({ ...options, connectTimeout: 3000 })
        .then((c) => (connection = c))
        .finally(() => (connecting = null));
    }
    return connecting;
  };

  return {
    async client() {
      // The id of the request being served travels in the headers of what it starts (server/temporal-context.ts).
      return new Client({
        connection: await connect(),
        namespace,
        interceptors: { workflow: requestIdInterceptors.client },
      });
    },
    async isUp() {
      try {
        const c = await connect();
        await c.withDeadline(Date.now() + 3000, () => c.healthService.check({}));
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await connection?.close();
      connection = null;
    },
  };
}
