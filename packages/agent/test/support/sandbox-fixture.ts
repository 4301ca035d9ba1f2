import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectSandboxSupport } from '../../src/sandbox/detect-sandbox-support.js';

/** Fails (never skips) where the sandbox cannot run, saying how to get it. */
export async function requireBubblewrap(): Promise<void> {
  const support = await detectSandboxSupport();
  if (!support.available)
    throw new Error(
      `These tests run real commands in the real sandbox, which is not available here: ${support.reason}. ` +
        'Install bubblewrap with `bash tooling/scripts/ensure-bubblewrap.sh` (Debian: apt-get install -y bubblewrap).',
    );
}

/**
 * A server's data directory in miniature: two conversations' workspaces side by side, the server's own
 * files, and a home directory, each holding a distinctive secret.
 */
export interface ServerLayout {
  root: string;
  dataDir: string;
  workspace: string;
  siblingWorkspace: string;
  home: string;
  /** In the sibling workspace, the data dir and the home directory. */
  fileSecret: string;
}

export function makeServerLayout(): ServerLayout {
  const root = mkdtempSync(join(tmpdir(), 'x-sandbox-hostile-'));
  const dataDir = join(root, 'data');
  const workspace = join(dataDir, 'conversations', 'mine', 'workspace');
  const siblingWorkspace = join(dataDir, 'conversations', 'other', 'workspace');
  const home = join(root, 'home');
  for (const directory of [workspace, siblingWorkspace, home]) mkdirSync(directory, { recursive: true });
  const fileSecret = `file-secret-${randomBytes(8).toString('hex')}`;
  writeFileSync(join(siblingWorkspace, 'notes.txt'), fileSecret);
  writeFileSync(join(dataDir, 'server-secrets.json'), JSON.stringify({ key: fileSecret }));
  writeFileSync(join(home, '.credentials'), fileSecret);
  return { root, dataDir, workspace, siblingWorkspace, home, fileSecret };
}

/** Live host processes running exactly `sleep <seconds>` (to find what a sandboxed command left behind). */
export function hostSleeps(seconds: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // A zombie is already dead; it only waits for its parent to reap it.
      const zombie = stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
      if (!zombie && /(^|\/)sleep$/.test(argv[0] ?? '') && argv[1] === String(seconds) && argv.length <= 3)
        found.push(Number.parseInt(name, 10));
    } catch {
      // Exited while scanned.
    }
  }
  return found;
}

/** Polls `condition` until it holds; the deadline is generous, as the machine may be loaded. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A node HTTP client for inside the sandbox that honours HTTP_PROXY (node 20's own fetch does not):
 * `node client.cjs <url> [connect]` prints `<status> <body>`, or `ERR <code>`; `connect` tunnels via CONNECT.
 */
export const HTTP_CLIENT_SOURCE = `'use strict';
const http = require('node:http');
const [url, mode] = process.argv.slice(2);
const target = new URL(url);
const proxy = process.env.HTTP_PROXY ? new URL(process.env.HTTP_PROXY) : undefined;
const fail = (error) => { console.log('ERR ' + (error.code || error.message)); process.exitCode = 3; };
const print = (response) => {
  let body = '';
  response.setEncoding('utf8');
  response.on('data', (chunk) => { body += chunk; });
  response.on('end', () => console.log(response.statusCode + ' ' + body.trim()));
};
if (proxy && mode === 'connect') {
  const request = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target.host });
  request.on('connect', (response, socket) => {
    if (response.statusCode !== 200) { console.log(response.statusCode + ' tunnel refused'); socket.destroy(); return; }
    http.get({ createConnection: () => socket, host: target.hostname, port: target.port, path: target.pathname }, print).on('error', fail);
  });
  request.on('error', fail);
  request.end();
} else if (proxy) {
  http.get({ host: proxy.hostname, port: proxy.port, path: url, headers: { host: target.host } }, print).on('error', fail);
} else {
  http.get(url, print).on('error', fail);
}
`;
