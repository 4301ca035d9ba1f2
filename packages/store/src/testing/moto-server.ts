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
 * Starts moto's S3 server (`python3 -m moto.server`) on 127.0.0.1 with an OS-chosen port. moto is the
 * test server because it implements `If-None-Match: *` on PutObject, which `writeIfAbsent` relies on.
 * Throws a `StoreError` with code `moto_unavailable` and install instructions when moto is missing.
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
  const child = spawn(python, ['-c', ATOMIC_PUT_LAUNCHER, '-H', '127.0.0.1', '-p', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = await waitForEndpoint(child, options.startTimeoutMs ?? 20_000);
  return {
    endpoint,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // moto can take a second or two to exit with a large in-memory state.
      await exited;
    },
  };
}

/**
 * `python3 -m moto.server`, with PutObject made atomic. moto checks `If-None-Match: *` and then stores the
 * object without a lock (moto/s3/responses.py, `put_object`), and its server is threaded, so two racing
 * conditional writes can both succeed there, which S3 (and MinIO, R2) never allow: under load, the
 * multi-writer tests then failed on moto's race, not on the code under test. One lock around `put_object`
 * gives moto S3's semantics.
 */
const ATOMIC_PUT_LAUNCHER = `
import sys, threading
import moto.s3.responses as responses
lock = threading.Lock()
original = responses.S3Response.put_object
def put_object(self):
    with lock:
        return original(self)
responses.S3Response.put_object = put_object
from moto.server import main
main(sys.argv[1:])
`;

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
