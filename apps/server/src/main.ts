import cluster from 'node:cluster';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { prepareDatabase, type PreparedDatabase } from './db/bootstrap.js';
import { startJobRunners, type JobRunner } from './modules/jobs/runner.js';
import { paymentEndpointsOf } from './modules/payments/directory.js';
import { migrateDedicatedTenants } from './modules/tenants/connections.js';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, seedDemo, type DemoLogin } from './seed/demo.js';
import { DEMO_RELATIVE_EMAIL } from './seed/demo-followers.js';
import { startDemoFleet } from '../../../tools/simulator/demo-fleet.js';

const USAGE = `Usage: node apps/server/dist/main.js [serve|migrate|seed]
  serve    apply migrations, seed the demo tenant on an empty database (SEED_DEMO), serve (default)
  migrate  apply migrations and exit
  seed     apply migrations, create the demo tenant if missing, and exit`;

function printDemoLogins(logins: DemoLogin[]) {
  const width = Math.max(...logins.map((login) => login.role.length));
  console.log(`\nDemo logins (tenant "${DEMO_TENANT_CODE}", password "${DEMO_PASSWORD}"):`);
  for (const login of logins) {
    console.log(`  ${login.role.padEnd(width)}  ${login.username}`);
  }
  console.log(`  ${'FOLLOWER'.padEnd(width)}  ${DEMO_RELATIVE_EMAIL} (patient app: follows the demo patient)`);
}

/** This process's index among the server processes of SERVER_PROCESSES (undefined: it serves alone). */
const workerIndex = cluster.isWorker ? Number(process.env.RPM_SERVER_PROCESS ?? '0') : undefined;

const loggerOf = (config: Config) =>
  pino({ level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] });

/**
 * The database migrated: the platform's (the embedded one started when no DATABASE_URL is given)
 * and, unless this is one of several server processes (the first process did it), the tenants on
 * databases of their own, each only after its connection passes the target checks; a refused or
 * failing one is logged and skipped, and the server still starts for the others.
 */
async function openDatabase(config: Config) {
  const logger = loggerOf(config);
  const log = (message: string) => {
    logger.info(message);
  };
  const prepared = await prepareDatabase(config, log);
  if (workerIndex === undefined) await migrateDedicatedTenants(prepared.database, config.secretsKey, { log: logger });
  return { logger, log, prepared };
}

/** Creates the demo tenant if missing and prints its logins. */
async function seedAndPrintLogins(database: PreparedDatabase['database'], log: (message: string) => void) {
  const seeded = await seedDemo(database);
  if (seeded.created) log(`created the demo tenant "${DEMO_TENANT_CODE}"`);
  printDemoLogins(seeded.logins);
}

async function run(command: string, config: Config) {
  const { logger, log, prepared } = await openDatabase(config);

  if (command === 'migrate') {
    await prepared.shutdown();
    return;
  }
  // Server processes of SERVER_PROCESSES: the first process seeded and prints what a user needs.
  if (command === 'seed' || (config.seedDemo && workerIndex === undefined)) {
    await seedAndPrintLogins(prepared.database, log);
    if (command === 'seed') {
      await prepared.shutdown();
      return;
    }
  }

  const app = await buildApp({ config, database: prepared.database, logger }).catch(async (error: unknown) => {
    await prepared.shutdown();
    throw error;
  });
  let jobRunner: JobRunner | undefined;
  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    app.isShuttingDown = true;
    log(`${signal} received: finishing requests in flight, then stopping`);
    const forceExit = setTimeout(() => process.exit(1), 15_000);
    forceExit.unref();
    // Jobs first: running ones finish, waiting ones stay in the queue for the next start.
    await jobRunner?.stop().catch((error: unknown) => {
      logger.error({ err: error }, 'jobs: the runner did not stop cleanly');
    });
    await app.close();
    await prepared.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  if (config.jobsEnabled) {
    jobRunner = await startJobRunners({ ownerUrl: prepared.ownerUrl, database: prepared.database, clock: app.clock, log: app.log, secretsKey: config.secretsKey, gateways: app.gateways, payments: { secretsKey: config.secretsKey, endpoints: paymentEndpointsOf(config) } });
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  if (workerIndex === undefined) printAddresses(port, prepared.description);
  // Simulated watches for the demo tenant, through the HTTP collector like real devices (one fleet,
  // from the first server process). With them a simulated duty operator works the demo's SOS cases
  // (SIMULATOR_OPERATOR=off: nobody does).
  if (config.simulator && config.seedDemo && (workerIndex ?? 0) === 0)
    startDemoFleet(port, log, { operator: config.simulatorOperator });
}

function printAddresses(port: number, database: string) {
  console.log(`\nConsole:  http://localhost:${port}/\nApp:      http://localhost:${port}/app/\nAPI docs: http://localhost:${port}/docs\nDatabase: ${database}\n`);
}

/** How long stopping server processes may take before they are killed. */
const STOP_MILLISECONDS = 20_000;

/**
 * `serve` with SERVER_PROCESSES > 1: this process prepares the database (starting the embedded one
 * when no DATABASE_URL is given), migrates and seeds once, then runs that many server processes
 * (node:cluster: they share the port, and connections are dealt to them in turn). Each serves as a
 * single server does, with its own pool, real-time hub and job runner: what several servers
 * against one database already share through PostgreSQL (docs/architecture.md). A process that
 * dies is started again; SIGTERM or SIGINT stops them all, then the embedded database.
 */
async function superviseServers(config: Config) {
  const { logger, log, prepared } = await openDatabase(config);
  if (config.seedDemo) await seedAndPrintLogins(prepared.database, log);
  let isStopping = false;
  let listening = 0;
  const fork = (index: number) => {
    // The processes reach the database this one prepared (the embedded one included).
    const worker = cluster.fork({ DATABASE_URL: prepared.ownerUrl, RPM_SERVER_PROCESS: String(index) });
    worker.once('listening', (address) => {
      listening += 1;
      if (listening === config.serverProcesses) {
        log(`${String(config.serverProcesses)} server processes listening`);
        printAddresses(address.port, prepared.description);
      }
    });
    worker.once('exit', (code, signal) => {
      if (isStopping) return;
      logger.error({ code, signal }, `server process ${String(index)} stopped: starting it again`);
      setTimeout(() => {
        fork(index);
      }, 1_000).unref();
    });
  };
  for (let index = 0; index < config.serverProcesses; index += 1) fork(index);

  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    log(`${signal} received: stopping the server processes`);
    const forceExit = setTimeout(() => process.exit(1), STOP_MILLISECONDS + 5_000);
    forceExit.unref();
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) {
              resolve();
              return;
            }
            const kill = setTimeout(() => worker.process.kill('SIGKILL'), STOP_MILLISECONDS);
            worker.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    await prepared.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

async function main() {
  const command = process.argv[2] ?? 'serve';
  if (!['serve', 'migrate', 'seed'].includes(command)) {
    console.error(USAGE);
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  if (command === 'serve' && config.serverProcesses > 1 && cluster.isPrimary) await superviseServers(config);
  else await run(command, config);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
