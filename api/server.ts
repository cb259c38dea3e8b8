/** API process entry: `tsx api/server.ts`. Reads configuration from the environment. */
import type { Server } from 'node:http';
import type { Knex } from 'knex';
import { createApp, createObservability, type Observability } from './app';
import { loadConfig, type AppConfig } from '../server/config';
import { openDatabase } from '../server/database-connection';
import { dataKeyring } from '../db/crypto';
import { createMailer } from './services/mail';
import { createTemporalGateway, type TemporalGateway } from './temporal';
import { getLogger } from '../server/logger';
import { connectOptions, probeTemporalTls } from '../server/temporal-connection';
import { exitOnSettingError } from '../server/setting-error';
import { prodAccountsAtStart, StartRefused } from '../server/first-admin';

const log = getLogger('api');

export interface RunningApi {
  server: Server;
  port: number;
  knex: Knex;
  temporal: TemporalGateway;
  observability: Observability;
  close(): Promise<void>;
}

export async function startApi(config: AppConfig): Promise<RunningApi> {
  // A malformed DATA_ENCRYPTION_KEY stops the start here, not at the first credential a request reads.
  dataKeyring();
  // A TLS setting the server refuses (wrong CA, server name, client certificate) stops the start; a server
  // that is merely down does not: the gateway retries and the health endpoint reports it.
  await probeTemporalTls(config.temporal, config.temporalAddress);
  // DATABASE_URL's TLS files and a first query: a setting that cannot work (a CA that did not sign the server)
  // stops the start here; a database that is down does not (readiness reports it).
  const { knex, reachable } = await openDatabase(config.databaseUrl);
  if (!reachable) log.warn('the database is not reachable yet: readiness reports it DOWN until it is');
  if (config.profiles.includes('prod')) {
    try {
      await prodAccountsAtStart(knex, config.initialAdmin, (line) => log.info(line));
    } catch (err) {
      await knex.destroy();
      throw err;
    }
  }
  const temporal = createTemporalGateway(
    connectOptions(config.temporal, config.temporalAddress),
    config.temporalNamespace,
  );
  const observability = createObservability({ config, knex, temporal });
  const app = createApp({ config, knex, temporal, mailer: createMailer(config.smtp), observability });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, () => resolve(s));
    s.on('error', reject);
  });
  // Idle keep-alive connections stay open longer than a client or proxy keeps them (Node's 5 s default lets a
  // client's next request race the server's close of the socket it reuses: "socket hang up" under load).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // The activity tracker's websocket shares the HTTP server (GET /websocket/tracker with an upgrade).
  observability.tracker.attach(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    server,
    port,
    knex,
    temporal,
    observability,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await observability.close();
      await closed;
      server.closeAllConnections?.();
      await temporal.close();
      await knex.destroy();
    },
  };
}

/** The configuration, or the start ends here with one line saying what is wrong (no stack). */
function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (err) {
    // a Temporal setting: its own line and exit code (78), which npm start does not retry
    exitOnSettingError(err, log);
    process.stderr.write(`The API cannot start: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

if (require.main === module) {
  const config = configOrExit();
  startApi(config)
    .then((api) => {
      log.info(`listening on http://localhost:${api.port}`);
      const stop = () => {
        api.close().finally(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    })
    .catch((err) => {
      exitOnSettingError(err, log);
      if (err instanceof StartRefused) {
        process.stderr.write(`The API cannot start: ${err.message}\n`);
        process.exit(1);
      }
      log.error('failed to start', { error: err as Error });
      process.exit(1);
    });
}
