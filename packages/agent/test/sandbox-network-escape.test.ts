// The sandbox's network against a hostile command, with real bubblewrap and only loopback traffic: listeners of
// the host (HTTP on 127.0.0.1 and ::1, an abstract unix socket, a unix socket file, as a server, a database or
// D-Bus would have) must be out of reach with `none`, and an allowlist must admit exactly its entries however the
// request to its proxy is dressed up (another Host header, userinfo, other spellings of the address, a second
// request pipelined behind an admitted one).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { MAX_PROXY_CONNECTIONS } from '../src/sandbox/internal/allowlist-proxy.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxPolicyInput } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout, waitFor } from './support/sandbox-fixture.js';

/**
 * `node probe.cjs <json list of attempts>` inside the sandbox. An attempt is `{ connect: <net.connect options> }`
 * (prints `open` or the error code) or `{ raw: <bytes>, via: 'proxy' }` (sends the bytes to the proxy named by
 * HTTP_PROXY and prints every status line of the answer). One line per attempt, in order.
 */
const PROBE_SOURCE = `'use strict';
const net = require('node:net');
const attempts = JSON.parse(process.argv[2]);
const proxy = process.env.HTTP_PROXY ? new URL(process.env.HTTP_PROXY) : undefined;
function attempt(a) {
  return new Promise((resolve) => {
    if (a.connect) {
      const socket = net.connect(a.connect);
      socket.on('connect', () => { socket.destroy(); resolve('open'); });
      socket.on('error', (error) => resolve(error.code || error.message));
      return;
    }
    if (!proxy) return resolve('no proxy');
    const socket = net.connect({ host: proxy.hostname, port: Number(proxy.port) });
    let answer = '';
    socket.on('data', (chunk) => { answer += chunk; });
    socket.on('error', (error) => resolve(error.code || error.message));
    socket.on('close', () => resolve(answer.split(/\\r?\\n/).filter((line) => /^HTTP\\/1\\.1 \\d+/.test(line) || line.startsWith('listener=')).join(' | ') || 'closed'));
    socket.write(a.raw);
  });
}
(async () => { for (const a of attempts) console.log(await attempt(a)); })();
`;

let layout: ServerLayout;
let admitted: Server;
let forbidden: Server;
let ipv6: Server | undefined;
let abstract: NetServer;
let fileSocket: NetServer;
let socketDir: string;
const ABSTRACT_NAME = `\0x-escape-${process.pid}-${Date.now()}`;
const sandboxes: Sandbox[] = [];

function listen(server: Server | NetServer, ...args: unknown[]): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    (server.listen as (...a: unknown[]) => void)(...args, () => resolve());
  });
}

function httpListener(name: string): Server {
  return createServer((request, response) => {
    response.end(`listener=${name} host=${request.headers.host}\n`);
  });
}

const port = (server: Server | NetServer) => (server.address() as AddressInfo).port;

async function probe(policy: SandboxPolicyInput, attempts: object[]): Promise<string[]> {
  const sandbox = await createSandbox({ policy, workspace: layout.workspace });
  sandboxes.push(sandbox);
  const result = await runSandboxed(sandbox, {
    command: process.execPath,
    args: ['probe.cjs', JSON.stringify(attempts)],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: 120_000,
  });
  expect(result.stderr).toBe('');
  return result.stdout.trim().split('\n');
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  writeFileSync(join(layout.workspace, 'probe.cjs'), PROBE_SOURCE);
  admitted = httpListener('admitted');
  forbidden = httpListener('forbidden');
  await listen(admitted, 0, '127.0.0.1');
  await listen(forbidden, 0, '127.0.0.1');
  try {
    const server = httpListener('ipv6');
    await listen(server, 0, '::1');
    ipv6 = server;
  } catch {
    // No IPv6 loopback on this host: nothing to reach there.
  }
  // A probe connects and hangs up at once: the write may then fail (EPIPE), which is no test failure.
  abstract = createNetServer((socket) => socket.on('error', () => undefined).end('abstract'));
  await listen(abstract, ABSTRACT_NAME);
  socketDir = mkdtempSync(join(tmpdir(), 'x-escape-sock-'));
  fileSocket = createNetServer((socket) => socket.on('error', () => undefined).end('file socket'));
  await listen(fileSocket, join(socketDir, 'server.sock'));
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  for (const server of [admitted, forbidden, ipv6, abstract, fileSocket])
    await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  rmSync(socketDir, { recursive: true, force: true });
  rmSync(layout.root, { recursive: true, force: true });
});

describe('the host listeners', () => {
  it('are all reachable by an unsandboxed process (the control)', async () => {
    const { spawnSync } = await import('node:child_process');
    const attempts = [
      { connect: { host: '127.0.0.1', port: port(forbidden) } },
      { connect: { path: ABSTRACT_NAME } },
      { connect: { path: join(socketDir, 'server.sock') } },
    ];
    const result = spawnSync(process.execPath, ['probe.cjs', JSON.stringify(attempts)], {
      cwd: layout.workspace,
      encoding: 'utf8',
    });
    expect(result.stdout.trim().split('\n')).toEqual(['open', 'open', 'open']);
  });

  it('are unreachable with network none and with an allowlist, by IPv4, IPv6, abstract or file socket, by name', async () => {
    const attempts = [
      { connect: { host: '127.0.0.1', port: port(forbidden) } },
      { connect: { host: '127.0.0.1', port: port(admitted) } },
      ...(ipv6 === undefined ? [] : [{ connect: { host: '::1', port: port(ipv6) } }]),
      { connect: { path: ABSTRACT_NAME } },
      { connect: { path: join(socketDir, 'server.sock') } },
      // A documentation address (TEST-NET-1) and a name to resolve: no route out of the sandbox (nor to the host's
      // resolver), so nothing is sent anywhere.
      { connect: { host: '192.0.2.1', port: 80 } },
      { connect: { host: 'example.com', port: 80 } },
    ];
    for (const policy of [{}, { network: { mode: 'allowlist', hosts: [`127.0.0.1:${port(admitted)}`] } }]) {
      const outcomes = await probe(policy as SandboxPolicyInput, attempts);
      expect(outcomes).toHaveLength(attempts.length);
      for (const outcome of outcomes) expect(outcome, JSON.stringify(policy)).not.toBe('open');
    }
  });
});

describe('the allowlist proxy', () => {
  const request = (lines: string[]) => ({ via: 'proxy', raw: `${lines.join('\r\n')}\r\n\r\n` });

  it('admits only its entry, whatever the Host header, userinfo, spelling of the address or pipelining', async () => {
    const a = port(admitted);
    const f = port(forbidden);
    const outcomes = await probe({ network: { mode: 'allowlist', hosts: [`127.0.0.1:${a}`] } }, [
      // 1. The admitted entry, plainly: answered by the admitted listener.
      request([`GET http://127.0.0.1:${a}/ HTTP/1.1`, `Host: 127.0.0.1:${a}`, 'Connection: close']),
      // 2. Admitted URL, forbidden Host header: still the admitted listener that answers.
      request([`GET http://127.0.0.1:${a}/ HTTP/1.1`, `Host: 127.0.0.1:${f}`, 'Connection: close']),
      // 3. Userinfo that looks like the admitted entry.
      request([`GET http://127.0.0.1:${a}@127.0.0.1:${f}/ HTTP/1.1`, `Host: 127.0.0.1:${a}`, 'Connection: close']),
      // 4. A relative request line, the target only in Host.
      request(['GET / HTTP/1.1', `Host: 127.0.0.1:${f}`, 'Connection: close']),
      // 5–10. CONNECT to the forbidden port, and other spellings of the admitted address.
      request([`CONNECT 127.0.0.1:${f} HTTP/1.1`, `Host: 127.0.0.1:${a}`]),
      request([`CONNECT localhost:${a} HTTP/1.1`, `Host: localhost:${a}`]),
      request([`CONNECT 127.1:${a} HTTP/1.1`, `Host: 127.1:${a}`]),
      request([`CONNECT 2130706433:${a} HTTP/1.1`, `Host: 2130706433:${a}`]),
      request([`CONNECT [::ffff:127.0.0.1]:${a} HTTP/1.1`, `Host: [::ffff:127.0.0.1]:${a}`]),
      request([`GET http://0x7f000001:${f}/ HTTP/1.1`, `Host: 127.0.0.1:${a}`, 'Connection: close']),
      // 11. A forbidden request pipelined behind an admitted one, on one connection.
      {
        via: 'proxy',
        raw:
          `GET http://127.0.0.1:${a}/ HTTP/1.1\r\nHost: 127.0.0.1:${a}\r\n\r\n` +
          `GET http://127.0.0.1:${f}/ HTTP/1.1\r\nHost: 127.0.0.1:${f}\r\nConnection: close\r\n\r\n`,
      },
    ]);
    expect(outcomes).toHaveLength(11);
    expect(outcomes[0]).toMatch(/^HTTP\/1\.1 200 .*listener=admitted/);
    expect(outcomes[1]).toMatch(/^HTTP\/1\.1 200 .*listener=admitted/);
    expect(outcomes[2]).toMatch(/^HTTP\/1\.1 403/);
    expect(outcomes[3]).toMatch(/^HTTP\/1\.1 400/);
    for (const outcome of outcomes.slice(4, 10)) expect(outcome).toMatch(/^HTTP\/1\.1 403/);
    expect(outcomes[10]).toMatch(/listener=admitted/);
    expect(outcomes[10]).toMatch(/HTTP\/1\.1 403/);
    for (const outcome of outcomes) expect(outcome).not.toContain('listener=forbidden');
  });
});

/** Opens `count` tunnels through the proxy to `target` at once, holds them, prints `held <n>` (the tunnels that
 * were established); exits when its stdin closes. */
const FLOOD_SOURCE = `'use strict';
const net = require('node:net');
const [count, target] = process.argv.slice(2);
const proxy = new URL(process.env.HTTP_PROXY);
let settled = 0;
let held = 0;
const sockets = [];
const settle = () => { settled += 1; if (settled === Number(count)) console.log('held ' + held); };
for (let i = 0; i < Number(count); i += 1) {
  const socket = net.connect({ host: proxy.hostname, port: Number(proxy.port) });
  sockets.push(socket);
  let done = false;
  const once = (ok) => { if (done) return; done = true; if (ok) held += 1; settle(); };
  socket.on('connect', () => socket.write('CONNECT ' + target + ' HTTP/1.1\\r\\nHost: ' + target + '\\r\\n\\r\\n'));
  socket.on('data', (chunk) => once(String(chunk).startsWith('HTTP/1.1 200')));
  socket.on('error', () => once(false));
  socket.on('close', () => once(false));
}
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

describe('a flood of connections through the allowlist proxy', () => {
  it("holds a bounded number of the server's descriptors, however many the command opens", async () => {
    writeFileSync(join(layout.workspace, 'flood.cjs'), FLOOD_SOURCE);
    const target = `127.0.0.1:${port(admitted)}`;
    const sandbox = await createSandbox({
      policy: { network: { mode: 'allowlist', hosts: [target] } },
      workspace: layout.workspace,
    });
    sandboxes.push(sandbox);
    const descriptors = () => readdirSync('/proc/self/fd').length;
    const before = descriptors();
    const child = await sandbox.spawn({
      command: process.execPath,
      args: ['flood.cjs', '1000', target],
      cwd: layout.workspace,
      env: { PATH: '/usr/bin:/bin' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    await waitFor(() => output.includes('held '), 'every connection to be answered or refused', 120_000);
    const during = descriptors();
    child.stdin?.end();
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, 'the flood to end');
    const held = Number.parseInt(output.replace('held ', ''), 10);
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(MAX_PROXY_CONNECTIONS);
    // Each tunnel is three descriptors of this process: the proxy's two (the client's socket and the upstream
    // one) and the admitted listener's, which this process plays too.
    expect(during - before).toBeLessThanOrEqual(3 * MAX_PROXY_CONNECTIONS + 32);
  });
});

/** A name of /etc/hosts, other than `localhost`, that resolves to loopback here (`ip6-localhost`, the host's name). */
function loopbackAlias(): { name: string; address: string } | undefined {
  let hosts = '';
  try {
    hosts = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of hosts.split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (address === undefined || !/^(127\.|::1$)/.test(address)) continue;
    const name = names.find((candidate) => candidate !== 'localhost' && /^[a-z0-9.-]+$/i.test(candidate));
    if (name !== undefined) return { name, address };
  }
  return undefined;
}

describe('an allowlisted name that resolves to the host itself', () => {
  it('does not reach the host loopback (a record under an allowlisted domain pointing at 127.0.0.1)', async () => {
    const alias = loopbackAlias();
    // Where /etc/hosts has no such name, resolve-upstream.test.ts covers the rule alone.
    // Every stock /etc/hosts has one (Debian: the host's name on 127.0.1.1; containers: ip6-localhost).
    expect(alias, 'a name other than localhost for a loopback address in /etc/hosts').toBeDefined();
    const listener = alias?.address === '::1' ? ipv6 : admitted;
    expect(listener, `a listener on ${alias?.address}`).toBeDefined();
    if (alias === undefined || listener === undefined) return;
    const target = `${alias.name}:${port(listener)}`;
    const outcomes = await probe({ network: { mode: 'allowlist', hosts: [target] } }, [
      { via: 'proxy', raw: `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n` },
      { via: 'proxy', raw: `GET http://${target}/ HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n` },
    ]);
    expect(outcomes).toEqual(['HTTP/1.1 403 Forbidden', 'HTTP/1.1 403 Forbidden']);
  });
});
