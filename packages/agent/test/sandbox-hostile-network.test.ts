// The sandbox's network against a hostile command, with real bubblewrap: a listener on the host's
// 127.0.0.1 (what a server's admin port or a database looks like) must be out of reach with `none` and with an
// allowlist that does not name it, and reachable with `all` or an allowlist naming it. Only loopback is used.
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import type { DeniedConnection } from '../src/sandbox/internal/allowlist-proxy.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxPolicyInput } from '../src/sandbox/sandbox-policy.js';
import {
  HTTP_CLIENT_SOURCE,
  makeServerLayout,
  requireBubblewrap,
  type ServerLayout,
} from './support/sandbox-fixture.js';

let layout: ServerLayout;
let server: Server;
let url: string;
let port: number;
const sandboxes: Sandbox[] = [];
const denied: DeniedConnection[] = [];

async function sandboxFor(policy: SandboxPolicyInput): Promise<Sandbox> {
  const sandbox = await createSandbox({
    policy,
    workspace: layout.workspace,
    onNetworkDenied: (connection) => denied.push(connection),
  });
  sandboxes.push(sandbox);
  return sandbox;
}

/** `node client.cjs <url> [connect]` inside the sandbox: prints `<status> <body>` or `ERR <code>`. */
async function fetchInside(sandbox: Sandbox, mode: 'plain' | 'connect' = 'plain'): Promise<string> {
  const result = await runSandboxed(sandbox, {
    command: process.execPath,
    args: ['client.cjs', url, mode],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: 120_000,
  });
  return `${result.stdout}${result.stderr}`.trim();
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  writeFileSync(join(layout.workspace, 'client.cjs'), HTTP_CLIENT_SOURCE);
  server = createServer((_request, response) => response.end('the host listener answered'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}/`;
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  await new Promise((resolve) => server.close(resolve));
  rmSync(layout.root, { recursive: true, force: true });
});

describe('a listener on the host loopback', () => {
  it('is unreachable with network none (the sandbox has only its own loopback)', async () => {
    expect(await fetchInside(await sandboxFor({ network: { mode: 'none' } }))).toBe('ERR ECONNREFUSED');
  });

  it('is reachable with network all', async () => {
    expect(await fetchInside(await sandboxFor({ network: { mode: 'all' } }))).toBe('200 the host listener answered');
  });

  it('is refused with 403 (and reported) by an allowlist that does not name it, plain or tunnelled', async () => {
    const sandbox = await sandboxFor({
      network: { mode: 'allowlist', hosts: [`127.0.0.1:${port + 1}`, '*.example.com'] },
    });
    denied.length = 0;
    expect(await fetchInside(sandbox)).toMatch(/^403 The sandbox's network allowlist does not admit 127\.0\.0\.1/);
    expect(await fetchInside(sandbox, 'connect')).toBe('403 tunnel refused');
    expect(denied).toEqual([
      { host: '127.0.0.1', port, method: 'GET' },
      { host: '127.0.0.1', port, method: 'CONNECT' },
    ]);
  });

  it('cannot be reached around the proxy from inside an allowlist sandbox', async () => {
    const sandbox = await sandboxFor({ network: { mode: 'allowlist', hosts: [`127.0.0.1:${port}`] } });
    const result = await runSandboxed(sandbox, {
      command: process.execPath,
      args: [
        '-e',
        'delete process.env.HTTP_PROXY; require("node:child_process").execFileSync(process.execPath, ["client.cjs", process.argv[1]], { stdio: "inherit", env: {} })',
        url,
      ],
      cwd: layout.workspace,
      env: { PATH: '/usr/bin:/bin' },
      wallTimeMs: 120_000,
    });
    expect(result.stdout.trim()).toBe('ERR ECONNREFUSED');
  });

  it('is reachable through the proxy by an allowlist that names it, plain or tunnelled', async () => {
    const sandbox = await sandboxFor({ network: { mode: 'allowlist', hosts: [`127.0.0.1:${port}`] } });
    expect(await fetchInside(sandbox)).toBe('200 the host listener answered');
    expect(await fetchInside(sandbox, 'connect')).toBe('200 the host listener answered');
  });
});
