// The allowlist proxy on its own (no sandbox): raw HTTP over its unix socket, against listeners on 127.0.0.1,
// for what a command's client sees of it: statuses, headers and bodies passed through, the errors it answers
// with, and its shutdown with a tunnel open. The sandbox's view of it is test/sandbox-*network*.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostPattern } from '../host-allowlist.js';
import { type AllowlistProxy, type DeniedConnection, startAllowlistProxy } from './allowlist-proxy.js';

let directory: string;
let upstream: Server;
/** A port of 127.0.0.1 where nothing listens (its listener was closed). */
let deadPort: number;
let proxy: AllowlistProxy;
const denied: DeniedConnection[] = [];
/** Connections the upstream listener holds open. */
const upstreamSockets = new Set<Socket>();

const port = () => (upstream.address() as AddressInfo).port;

/** A name of /etc/hosts other than `localhost` for 127.0.0.1 (Debian: the host's own name; gVisor: `runsc`). */
function loopbackAlias(): string | undefined {
  for (const line of readFileSync('/etc/hosts', 'utf8').split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (address !== '127.0.0.1' && address !== '127.0.1.1') continue;
    const name = names.find((candidate) => candidate !== 'localhost' && /^[a-z0-9.-]+$/i.test(candidate));
    if (name !== undefined) return name;
  }
  return undefined;
}
const alias = loopbackAlias();

/** Sends `raw` to the proxy, returns all it answers until it closes the connection. */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(join(directory, 'proxy.sock'));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(raw);
  });
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'x-proxy-test-'));
  upstream = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      response.writeHead(request.url?.startsWith('/missing') ? 404 : 200, {
        'x-upstream': 'yes',
        'keep-alive': 'timeout=5',
      });
      response.end(
        `method=${request.method} path=${request.url} body=${body} proxy-auth=${request.headers['proxy-authorization'] ?? '-'}`,
      );
    });
  });
  upstream.on('connection', (socket) => {
    upstreamSockets.add(socket);
    socket.on('close', () => upstreamSockets.delete(socket));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const dead = createServer();
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
  deadPort = (dead.address() as AddressInfo).port;
  await new Promise((resolve) => dead.close(resolve));
  proxy = await startAllowlistProxy({
    socketPath: join(directory, 'proxy.sock'),
    hosts: [`127.0.0.1:${port()}`, `127.0.0.1:${deadPort}`, 'localhost', `${alias}`].map(
      (host) => parseHostPattern(host) as NonNullable<ReturnType<typeof parseHostPattern>>,
    ),
    onDenied: (connection) => denied.push(connection),
  });
});

afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => upstream?.close(resolve));
  rmSync(directory, { recursive: true, force: true });
});

describe('a plain request through the proxy', () => {
  it("passes the upstream's status, headers and body through, and the request's method and body to it", async () => {
    const body = 'payload';
    const answer = await exchange(
      [
        `POST http://127.0.0.1:${port()}/missing?q=1 HTTP/1.1`,
        `Host: 127.0.0.1:${port()}`,
        'Proxy-Authorization: Basic c2VjcmV0',
        `Content-Length: ${body.length}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toMatch(/\r\nx-upstream: yes\r\n/i);
    // Hop-by-hop headers stay on their own hop: neither the upstream's keep-alive nor the proxy's credentials pass.
    expect(answer).not.toMatch(/\r\nkeep-alive:/i);
    expect(answer).toContain('method=POST path=/missing?q=1 body=payload proxy-auth=-');
  });

  it('is refused with 400 unless its URL is absolute and http:', async () => {
    for (const target of ['/', `https://127.0.0.1:${port()}/`, 'ftp://127.0.0.1/'])
      expect(
        await exchange(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\nConnection: close\r\n\r\n`),
        target,
      ).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('answers 502 where an admitted host does not answer', async () => {
    const answer = await exchange(
      `GET http://127.0.0.1:${deadPort}/ HTTP/1.1\r\nHost: 127.0.0.1:${deadPort}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 502 /);
    expect(answer).toContain(`The proxy could not reach 127.0.0.1:${deadPort}`);
  });

  it('uses port 80 when the URL names none', async () => {
    denied.length = 0;
    const answer = await exchange('GET http://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(denied).toEqual([{ host: '127.0.0.1', port: 80, method: 'GET' }]);
  });
});

describe('a CONNECT tunnel through the proxy', () => {
  it('carries what the client sent with its CONNECT (a TLS hello sent at once) and the answer back', async () => {
    const answer = await exchange(
      `CONNECT 127.0.0.1:${port()} HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\n\r\n` +
        `GET /tunnelled HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 /);
    expect(answer).toContain('method=GET path=/tunnelled');
  });

  it('carries what came with its CONNECT however short, before what follows', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const client = connect(join(directory, 'proxy.sock'));
      let received = '';
      client.setEncoding('utf8');
      client.on('error', reject);
      client.on('data', (chunk) => {
        const first = received === '';
        received += chunk;
        // The rest of the request once the tunnel stands: only its first byte came with the CONNECT.
        if (first) client.write('ET /one-byte HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      });
      client.on('close', () => resolve(received));
      client.write(`CONNECT 127.0.0.1:${port()} HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\n\r\nG`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 /);
    expect(answer).toContain('method=GET path=/one-byte');
  });

  it('is refused with 400 for an authority without a port', async () => {
    denied.length = 0;
    expect(await exchange('CONNECT localhost HTTP/1.1\r\nHost: localhost\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 400 Bad Request\r\n/,
    );
    expect(denied).toEqual([]);
  });

  it('answers 502 where an admitted host does not answer', async () => {
    expect(await exchange(`CONNECT 127.0.0.1:${deadPort} HTTP/1.1\r\nHost: 127.0.0.1:${deadPort}\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 502 Bad Gateway\r\n/,
    );
  });

  it('is closed with the proxy, and its upstream connection with it', async () => {
    const other = await startAllowlistProxy({
      socketPath: join(directory, 'other.sock'),
      hosts: [parseHostPattern(`127.0.0.1:${port()}`) as NonNullable<ReturnType<typeof parseHostPattern>>],
      onDenied: () => undefined,
    });
    const client = connect(join(directory, 'other.sock'));
    const closed = new Promise((resolve) => client.on('close', resolve));
    const established = new Promise((resolve) => client.once('data', resolve));
    client.write(`CONNECT 127.0.0.1:${port()} HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\n\r\n`);
    expect(String(await established)).toMatch(/^HTTP\/1\.1 200 /);
    const held = upstreamSockets.size;
    expect(held).toBeGreaterThan(0);
    await other.close();
    await closed;
    await expect.poll(() => upstreamSockets.size).toBeLessThan(held);
  });
});

describe('a client that hangs up at once', () => {
  it('leaves the proxy serving: the refusal it can no longer write is no crash', async () => {
    for (let round = 0; round < 5; round += 1) {
      const client = connect(join(directory, 'proxy.sock'));
      await new Promise((resolve) => client.on('connect', resolve));
      client.end(`CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n`);
      client.destroy();
    }
    expect(await exchange(`CONNECT 127.0.0.1:${deadPort} HTTP/1.1\r\nHost: 127.0.0.1:${deadPort}\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 502 /,
    );
  });
});

describe('an admitted name that resolves to this machine', () => {
  it('is refused, plain or tunnelled, and reported', async () => {
    expect(alias, 'a name other than localhost for a loopback address in /etc/hosts').toBeDefined();
    denied.length = 0;
    const target = `${alias}:${port()}`;
    const plain = await exchange(`GET http://${target}/ HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`);
    expect(plain).toMatch(/^HTTP\/1\.1 403 /);
    expect(plain).toContain('an address of this machine');
    const tunnel = await exchange(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    expect(tunnel).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(denied).toEqual([
      { host: alias, port: port(), method: 'GET' },
      { host: alias, port: port(), method: 'CONNECT' },
    ]);
  });
});

describe('a CONNECT authority spelled oddly', () => {
  it('is refused with 400 for a port no socket can have, and the proxy keeps serving', async () => {
    denied.length = 0;
    // `localhost` is admitted on every port: the port alone decides, and connecting to these throws.
    for (const authority of ['localhost:99999', 'localhost:0', 'localhost:65536', 'localhost:4294967377'])
      expect(await exchange(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`), authority).toMatch(
        /^HTTP\/1\.1 400 Bad Request\r\n/,
      );
    expect(denied).toEqual([]);
    // The ends of the range are ports: admitted (`localhost`, every port), and nothing listens there.
    for (const authority of ['localhost:1', 'localhost:65535'])
      expect(await exchange(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`), authority).toMatch(
        /^HTTP\/1\.1 502 Bad Gateway\r\n/,
      );
    expect(
      await exchange(
        `CONNECT 127.0.0.1:${port()} HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      ),
    ).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n/);
  });

  it('reaches the admitted host under another spelling of its name: upper case, a trailing dot', async () => {
    for (const host of ['LOCALHOST', 'localhost.', 'LocalHost.']) {
      const target = `${host}:${port()}`;
      const tunnel = await exchange(
        `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\nGET /spelled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(tunnel, target).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 /);
      const plain = await exchange(
        `GET http://${target}/plain HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`,
      );
      expect(plain, target).toContain('method=GET path=/plain');
    }
  });

  it('is not admitted as another spelling of an admitted address: decimal, hexadecimal, IPv4-mapped IPv6', async () => {
    denied.length = 0;
    for (const host of ['2130706433', '0x7f.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
      const target = `${host}:${deadPort}`;
      expect(await exchange(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`), target).toMatch(
        /^HTTP\/1\.1 403 Forbidden\r\n/,
      );
    }
    expect(denied.map((connection) => connection.host)).toEqual([
      '2130706433',
      '0x7f.1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ]);
  });
});

describe('starting a proxy', () => {
  it('rejects where its socket cannot be listened on (a path in use), without a stray error event', async () => {
    await expect(
      startAllowlistProxy({ socketPath: join(directory, 'proxy.sock'), hosts: [], onDenied: () => undefined }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
