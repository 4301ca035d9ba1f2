import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresStoreError } from '../errors.js';

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  /**
   * Stops the server (fast shutdown: every connection is cut), runs `whileDown` and starts it again on the
   * same port and data: what clients see when the database restarts. `url` and `port` stay the same; the
   * port is outside the kernel's ephemeral range, so nothing takes it meanwhile but a deliberate bind.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  /** Stops the server (fast shutdown), waits for it to exit and removes its data directory. */
  stop(): Promise<void>;
}

const INSTALL_HINT =
  'Install PostgreSQL with `bash tooling/scripts/ensure-postgres.sh` (Debian: apt-get install -y postgresql), ' +
  'or set X_POSTGRES_BIN to the directory holding initdb and postgres.';

/** The directory holding `initdb` and `postgres`: `X_POSTGRES_BIN`, else the newest `/usr/lib/postgresql/<v>/bin`. */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.X_POSTGRES_BIN;
  if (configured !== undefined && configured !== '') return configured;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((name) => existsSync(join(base, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] === undefined) {
    throw new PostgresStoreError('postgres_unavailable', `No PostgreSQL server found under ${base}. ${INSTALL_HINT}`);
  }
  return join(base, versions[0], 'bin');
}

/**
 * A port to try: random, below the kernel's ephemeral range (`ip_local_port_range`). A port found free by
 * listening on port 0 comes from that range, so the kernel may hand it to another listener or to an outgoing
 * connection between the check and PostgreSQL's bind, or while the server is down for `restart()`; a port below
 * the range is only ever taken by a deliberate bind. Without a usable range: 20000–29999.
 */
export function pickPostgresPort(rangeText = readEphemeralRange()): number {
  const low = Number.parseInt(rangeText?.trim().split(/\s+/)[0] ?? '', 10);
  const top = Number.isInteger(low) && low > 11_000 ? low - 1 : 29_999;
  const bottom = Number.isInteger(low) && low > 11_000 ? 10_000 : 20_000;
  return bottom + Math.floor(Math.random() * (top - bottom + 1));
}

function readEphemeralRange(): string | undefined {
  try {
    return readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
  } catch {
    return undefined;
  }
}

/** PostgreSQL's log when it could not listen on its port (another process holds it). */
function isBindFailure(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return /could not bind|Address already in use|could not create any TCP\/IP sockets/i.test(text);
}

/** Ports tried before `startPostgresServer` gives up: each taken one is met by a bind failure, then the next. */
const PORT_ATTEMPTS = 10;

/** Who runs the server: PostgreSQL refuses to run as root, so root hands it to the `postgres` user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) {
    throw new PostgresStoreError(
      'postgres_unavailable',
      `Running as root, PostgreSQL needs the 'postgres' user, which does not exist. ${INSTALL_HINT}`,
    );
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Starts a throwaway PostgreSQL server for tests: `initdb` into a temp directory, then `postgres` on
 * 127.0.0.1 on a random port below the ephemeral range (another one when PostgreSQL finds it taken), its unix socket in the temp directory, fsync off (or, with `durable`, PostgreSQL's
 * own durable defaults: fsync, synchronous_commit and full_page_writes on, as a deployment runs it). As root it
 * runs as the `postgres` user. Fails (never skips) with install instructions when PostgreSQL is missing.
 */
export async function startPostgresServer(
  options: {
    startTimeoutMs?: number;
    durable?: boolean;
    /** Chooses each port to try (default `pickPostgresPort`); a taken one is met by trying the next. */
    pickPort?: () => number;
  } = {},
): Promise<PostgresServer> {
  const bin = findPostgresBin();
  const user = serverUser();
  const root = await mkdtemp(join(tmpdir(), 'x-postgres-'));
  const data = join(root, 'data');
  const socketDir = join(root, 'socket');
  await mkdir(socketDir);
  if (user !== undefined) {
    await chown(root, user.uid, user.gid);
    await chown(socketDir, user.uid, user.gid);
  }
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--locale=C'],
    { encoding: 'utf8', ...(user ?? {}) },
  );
  if (init.status !== 0) {
    await rm(root, { recursive: true, force: true, maxRetries: 5 });
    throw new PostgresStoreError(
      'postgres_unavailable',
      `initdb failed (${init.error?.message ?? `exit ${init.status}`}): ${init.stderr}. ${INSTALL_HINT}`,
    );
  }
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const durable = options.durable ?? false;
  const pickPort = options.pickPort ?? (() => pickPostgresPort());
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 1; child === undefined; attempt++) {
    port = pickPort();
    try {
      child = await launch({ bin, data, socketDir, port, user, timeoutMs, durable });
    } catch (error) {
      // Taken by another process: another port. Any other failure is reported as it is.
      if (!isBindFailure(error) || attempt >= PORT_ATTEMPTS) {
        await rm(root, { recursive: true, force: true, maxRetries: 5 });
        throw error;
      }
    }
  }
  // Set by the loop above (narrowed to undefined by its condition).
  let running = child as ChildProcess;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const exited = (process: ChildProcess): Promise<void> =>
    process.exitCode !== null || process.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => process.once('exit', () => resolve()));
  return {
    url,
    port,
    async restart(whileDown) {
      if (running.exitCode === null && running.signalCode === null) running.kill('SIGINT');
      await exited(running);
      await whileDown?.();
      running = await launch({ bin, data, socketDir, port, user, timeoutMs, durable });
    },
    async stop() {
      if (running.exitCode === null && running.signalCode === null) running.kill('SIGINT');
      await exited(running);
      await rm(root, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

function launch(options: {
  bin: string;
  data: string;
  socketDir: string;
  port: number;
  user: { uid: number; gid: number } | undefined;
  timeoutMs: number;
  durable: boolean;
}): Promise<ChildProcess> {
  const args = ['-D', options.data, '-p', String(options.port), '-k', options.socketDir];
  const unsafe = options.durable ? [] : ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];
  for (const setting of ['listen_addresses=127.0.0.1', ...unsafe, 'max_connections=200']) {
    args.push('-c', setting);
  }
  const child = spawn(join(options.bin, 'postgres'), args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.user ?? {}),
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new PostgresStoreError(
          'postgres_unavailable',
          `PostgreSQL did not start in ${options.timeoutMs} ms: ${output}`,
        ),
      );
    }, options.timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!output.includes('database system is ready to accept connections')) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
      child.off('exit', onExit);
      resolve(child);
    };
    const onExit = (code: number | null, signal: string | null): void => {
      clearTimeout(timer);
      reject(
        new PostgresStoreError(
          'postgres_unavailable',
          `PostgreSQL exited (${code ?? signal}) before it was ready: ${output}`,
        ),
      );
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new PostgresStoreError('postgres_unavailable', `Cannot start PostgreSQL: ${error.message}. ${INSTALL_HINT}`, {
          cause: error,
        }),
      );
    });
  });
}
