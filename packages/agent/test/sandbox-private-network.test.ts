// An allowlisted name that stands for an address of the server's own network, through the real sandbox and its
// proxy: a command cannot reach the internal network (or the server's loopback) by a name the allowlist admits,
// with the system resolver's answer for it. Numeric names (`10.1` is 10.0.0.1 to getaddrinfo) stand in for a DNS
// record under an admitted domain, so nothing is resolved or sent beyond this machine; every refusal is made
// before the proxy connects anywhere.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import type { DeniedConnection } from '../src/sandbox/internal/allowlist-proxy.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxNetwork } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

/** Sends `CONNECT <authority>` to the sandbox's proxy as written (no URL normalises it), prints the answer. */
const RAW_CONNECT_SOURCE = `'use strict';
const net = require('node:net');
const proxy = new URL(process.env.HTTPS_PROXY || process.env.HTTP_PROXY);
const socket = net.connect(Number(proxy.port), proxy.hostname);
let answer = '';
socket.setEncoding('utf8');
socket.on('data', (chunk) => { answer += chunk; });
socket.on('close', () => console.log(answer.split('\\r\\n\\r\\n').map((part) => part.split('\\r\\n')[0]).join(' | ')));
socket.on('error', (error) => console.log('ERR ' + error.code));
socket.write('CONNECT ' + process.argv[2] + ' HTTP/1.1\\r\\nHost: ' + process.argv[2] + '\\r\\n\\r\\n');
`;

let layout: ServerLayout;
const sandboxes: Sandbox[] = [];
const denied: DeniedConnection[] = [];

async function connectInside(network: SandboxNetwork, authority: string): Promise<string> {
  const sandbox = await createSandbox({
    policy: { network },
    workspace: layout.workspace,
    onNetworkDenied: (connection) => denied.push(connection),
  });
  sandboxes.push(sandbox);
  const result = await runSandboxed(sandbox, {
    command: process.execPath,
    args: ['connect.cjs', authority],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: 120_000,
  });
  return `${result.stdout}${result.stderr}`.trim();
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  writeFileSync(join(layout.workspace, 'connect.cjs'), RAW_CONNECT_SOURCE);
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(layout.root, { recursive: true, force: true });
});

describe('an allowlisted name that resolves into the internal network', () => {
  it('is refused with 403 naming the address, its range and how to admit it', async () => {
    denied.length = 0;
    const answer = await connectInside({ mode: 'allowlist', hosts: ['*.1', '167772161'] }, '10.1:443');
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden \| The sandbox's network allowlist does not admit 10\.1:443: /);
    expect(answer).toContain('10.1 resolves to 10.0.0.1, a private network (10.0.0.0/8)');
    expect(answer).toContain('allowPrivateNetworks: true');
    expect(denied).toEqual([{ host: '10.1', port: 443, method: 'CONNECT' }]);
    expect(await connectInside({ mode: 'allowlist', hosts: ['167772161'] }, '167772161:80')).toContain(
      '167772161 resolves to 10.0.0.1',
    );
  });

  it("is refused when it stands for the server's loopback, private networks admitted or not", async () => {
    for (const allowPrivateNetworks of [false, true]) {
      const answer = await connectInside({ mode: 'allowlist', hosts: ['*.1'], allowPrivateNetworks }, '127.1:80');
      expect(answer, `allowPrivateNetworks: ${allowPrivateNetworks}`).toContain(
        '127.1 resolves to 127.0.0.1, loopback, this machine (127.0.0.0/8)',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    }
  });
});
