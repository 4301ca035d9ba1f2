import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { StoreError } from '../errors.js';

export interface MotoServer {
  /** `http://127.0.0.1:<port>`: pass as `endpoint` with `forcePathStyle: true` and any credentials. */
  readonly endpoint: string;
  /** Stops the server and waits for the process to exit. */
  stop(): Promise<void>;
}

const INSTALL_HINT =
  "Install it with `pip install 'moto[server]'` (into the python3 on PATH), or run the tests against " +
  'another S3-compatible server by setting X_S3_ENDPOINT (e.g. X_S3_ENDPOINT=http://127.0.0.1:9000 for MinIO; ' +
  'it must support conditional writes, which s3rver does not).';

/**
 * Runs `moto.server`'s own entry point with every request applied under one lock. moto checks
 * `If-None-Match: *` and then stores the object as two steps, and its server handles requests on parallel
 * threads, so two racing conditional puts can both see "absent" and both succeed; real S3 (and MinIO) make
 * the check and the write one atomic step. Serialising requests gives the test server S3's atomicity,
 * which the conditional-write tests (exactly one of N racing writers wins) depend on.
 */
const MOTO_WITH_ATOMIC_REQUESTS = [
  'import sys, threading',
  'import moto.server as server',
  'lock = threading.Lock()',
  'dispatch = server.DomainDispatcherApplication.__call__',
  'def atomic(self, environ, start_response):',
  '    with lock:',
  '        return list(dispatch(self, environ, start_response))',
  'server.DomainDispatcherApplication.__call__ = atomic',
  'server.main(sys.argv[1:])',
].join('\n');

/**
 * Starts moto's S3 server (`python3 -m moto.server`, with requests made atomic, see above) on 127.0.0.1 with an OS-chosen port. moto is the
 * test server because it implements `If-None-Match: *` on PutObject, which `writeIfAbsent` relies on.
 * Throws a `StoreError` with code `moto_unavailable` and install instructions when moto is missing, or when it has
 * not said its port within `startTimeoutMs` (default 60 s: a safety net, generous for a loaded machine).
 */
export async function startMotoServer(options: { python?: string; startTimeoutMs?: number } = {}): Promise<MotoServer> {
  const python = options.python ?? 'python3';
  const probe = spawnSync(python, ['-c', 'import moto.server'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    const why = probe.error?.message ?? probe.stderr.trim().split('\n').at(-1) ?? 'unknown error';
    throw new StoreError(
      'moto_unavailable',
      `Cannot start the moto S3 test server: ${python} cannot import moto (${why}). ${INSTALL_HINT}`,
    );
  }
  const child = spawn(python, ['-c', MOTO_WITH_ATOMIC_REQUESTS, '-H', '127.0.0.1', '-p', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = await waitForEndpoint(child, options.startTimeoutMs ?? 60_000);
  return {
    endpoint,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // moto can take a second or two to exit with a large in-memory state.
      await exited;
    },
  };
}

function waitForEndpoint(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new StoreError('moto_unavailable', `moto did not report its port within ${timeoutMs} ms. Output: ${output}`),
      );
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      // Keep draining the pipes so moto never blocks on a full stdout/stderr buffer.
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new StoreError('moto_unavailable', `Cannot start moto: ${error.message}. ${INSTALL_HINT}`, { cause: error }),
      );
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new StoreError('moto_unavailable', `moto exited (${code ?? signal}) before it was ready. Output: ${output}`),
      );
    });
  });
}
