// `allowPrivateNetworks: true` admitted end to end: a command in the real sandbox asks its proxy for an allowlisted
// name that stands for a host of the internal network, and gets that host's answer. The host is a listener on
// 127.0.0.1 that the proxy's classifier (the one seam, `upstreamLookup`) counts as a private network, and the name
// resolves to it there: nothing is resolved by DNS or sent beyond this machine. The policy's flag itself is what
// the sandbox must pass on to its proxy; without it, the same request is refused naming the flag.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapSandbox } from '../src/sandbox/bubblewrap-sandbox.js';
import { detectSandboxSupport } from '../src/sandbox/detect-sandbox-support.js';
import type { UpstreamLookup } from '../src/sandbox/internal/allowlist-proxy.js';
import { discoverCgroupHierarchies } from '../src/sandbox/internal/cgroups.js';
import { readHostLayout } from '../src/sandbox/internal/host-layout.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import { sandboxPolicySchema } from '../src/sandbox/sandbox-policy.js';

/** A plain proxied GET (absolute URL) through the proxy the sandbox names in HTTP_PROXY; prints status and body. */
const PROXIED_GET_SOURCE = `'use strict';
const http = require('node:http');
const proxy = new URL(process.env.HTTP_PROXY);
const request = http.request({ host: proxy.hostname, port: proxy.port, path: process.argv[2], method: 'GET' }, (reply) => {
  let body = '';
  reply.setEncoding('utf8');
  reply.on('data', (chunk) => { body += chunk; });
  reply.on('end', () => console.log(reply.statusCode + ' ' + body.trim()));
});
request.on('error', (error) => console.log('ERR ' + error.code));
request.end();
`;

const INTRANET = 'build-cache.intranet.test';
let root: string;
let bwrap: string;
let workspace: string;
let upstream: Server;
const sandboxes: BubblewrapSandbox[] = [];
const asked: string[] = [];

/** The intranet name resolves to the loopback listener, which counts as a private network here (and only here). */
const lookup: UpstreamLookup = {
  resolve: async (host) => {
    asked.push(host);
    return host === INTRANET ? [{ address: '127.0.0.1' }] : [];
  },
  classify: (address) =>
    address === '127.0.0.1' ? { scope: 'private', range: 'the test intranet (127.0.0.1)' } : { scope: 'public' },
};

async function getInside(allowPrivateNetworks: boolean | undefined): Promise<string> {
  const network = {
    mode: 'allowlist' as const,
    hosts: [INTRANET],
    ...(allowPrivateNetworks === undefined ? {} : { allowPrivateNetworks }),
  };
  const sandbox = new BubblewrapSandbox({
    policy: sandboxPolicySchema.parse({ network }),
    workspace,
    bwrap,
    sizesTmpfs: true,
    layout: readHostLayout(),
    // The host's own, as `createSandbox` finds them (a root server runs nothing under a process limit without).
    cgroups: discoverCgroupHierarchies(),
    upstreamLookup: lookup,
  });
  sandboxes.push(sandbox);
  const port = (upstream.address() as AddressInfo).port;
  const result = await runSandboxed(sandbox, {
    command: process.execPath,
    args: ['get.cjs', `http://${INTRANET}:${port}/artifact`],
    cwd: workspace,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: 120_000,
  });
  return `${result.stdout}${result.stderr}`.trim();
}

beforeAll(async () => {
  const support = await detectSandboxSupport();
  if (!support.available)
    throw new Error(`These tests run real commands in the real sandbox, not available here: ${support.reason}`);
  bwrap = support.bwrap;
  root = realpathSync(mkdtempSync(join(tmpdir(), 'x-private-admitted-')));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'get.cjs'), PROXIED_GET_SOURCE);
  upstream = createServer((request, response) => {
    response.end(`intranet served ${request.url}`);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

describe("a policy's allowPrivateNetworks, through the sandbox to its proxy", () => {
  it('admits an allowlisted name that resolves into a private network when true', async () => {
    asked.length = 0;
    expect(await getInside(true)).toBe('200 intranet served /artifact');
    expect(asked).toEqual([INTRANET]);
  });

  it('refuses the same name, naming the flag, when false or left out', async () => {
    for (const allowPrivateNetworks of [false, undefined]) {
      const answer = await getInside(allowPrivateNetworks);
      expect(answer, `allowPrivateNetworks: ${allowPrivateNetworks}`).toMatch(/^403 /);
      expect(answer).toContain(`${INTRANET} resolves to 127.0.0.1, the test intranet (127.0.0.1)`);
      expect(answer).toContain('allowPrivateNetworks: true');
    }
  });
});
