import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, InsecureBindError, isLoopbackHost } from '../../src/index.js';
import { redactUrl } from '../../src/security/index.js';
import { removeDir, startTestServer, type TestServer, tempDir } from '../helpers.js';
import { rawRequest } from '../support/raw-http.js';
import { rawUpgrade } from '../support/raw-websocket.js';

const scripted = {
  agent: {
    llm: { model: 'offline' },
    tools: [{ name: 'TerminalTool' }],
    x_offline_script: [{ toolCalls: [{ name: 'terminal', arguments: { command: 'echo pwned' } }] }],
  },
};

describe('scripted (offline) agents', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
    await removeDir(server.dataDir);
  });

  it('are refused with 400 naming the field unless the server was started for testing', async () => {
    const { status, json } = await server.call('POST', '/api/conversations', scripted);
    expect(status).toBe(400);
    expect((json as { detail: string }).detail).toMatch(/^agent\.x_offline_script: .*testing/);
    expect(await server.call('GET', '/api/conversations/count')).toEqual({ status: 200, json: 0 });
  });

  it('the offline model without a script stays available (it only finishes)', async () => {
    const { status } = await server.call('POST', '/api/conversations', { agent: { llm: { model: 'offline' } } });
    expect(status).toBe(201);
  });

  it('are accepted by a server built with allowScriptedAgents', async () => {
    const testing = await startTestServer({ config: { allowScriptedAgents: true } });
    try {
      expect((await testing.call('POST', '/api/conversations', scripted)).status).toBe(201);
    } finally {
      await testing.stop();
      await removeDir(testing.dataDir);
    }
  });
});

describe('binding beyond loopback', () => {
  it('knows the loopback spellings', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) {
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: true });
    }
    for (const host of ['0.0.0.0', '::', '10.0.0.1', 'example.com', '128.0.0.1', '::2']) {
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: false });
    }
  });

  it('is refused without a key, allowed with a key or the explicit insecureNoKey', async () => {
    const dataDir = await tempDir();
    try {
      await expect(buildServer({ host: '0.0.0.0', port: 0, dataDir, logLevel: 'silent' })).rejects.toSatisfy(
        (error) => InsecureBindError.isInstance(error) && /--insecure-no-key/.test((error as Error).message),
      );
      for (const extra of [{ apiKeys: ['k'] }, { insecureNoKey: true }]) {
        const built = await buildServer({ host: '0.0.0.0', port: 0, dataDir, logLevel: 'silent', ...extra });
        await built.close();
      }
    } finally {
      await removeDir(dataDir);
    }
  });
});

describe('secrets in the log', () => {
  it('redacts key-like query parameters in logged URLs', () => {
    expect(redactUrl('/api/x?session_api_key=abc&limit=5')).toBe('/api/x?session_api_key=[REDACTED]&limit=5');
    expect(redactUrl('/a?Session%5FAPI%5FKey=abc&token=t&x=1')).toBe(
      '/a?Session%5FAPI%5FKey=[REDACTED]&token=[REDACTED]&x=1',
    );
    expect(redactUrl('/plain')).toBe('/plain');
  });

  it('never writes a session key, authorization or cookie to the log, at trace level', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const dataDir = await tempDir();
    const built = await buildServer(
      { port: 0, dataDir, logLevel: 'trace', apiKeys: ['the-real-key-123'] },
      { logStream: { write: (message: string) => logStream.write(message) } },
    );
    try {
      const { url } = await built.listen();
      const port = Number(new URL(url).port);
      built.app.log.info(
        { req: { headers: { 'x-session-api-key': 'the-real-key-123' } } },
        'a handler logging headers',
      );
      for (const target of [
        '/api/conversations/count?session_api_key=the-real-key-123',
        '/nope?api_key=the-real-key-123&SESSION_API_KEY=the-real-key-123',
        '/api/conversations/count?token=wrong-key-456',
      ]) {
        await rawRequest(port, {
          target,
          headers: {
            'X-Session-API-Key': 'the-real-key-123',
            Authorization: 'Bearer bearer-secret-789',
            Cookie: 'session=cookie-secret-000',
          },
        });
      }
      await rawUpgrade(port, '/sockets/events/00000000000000000000000000000000?session_api_key=the-real-key-123', {
        readFrames: 1,
      });
      const log = lines.join('');
      expect(log).toContain('session_api_key=[REDACTED]');
      for (const secret of ['the-real-key-123', 'bearer-secret-789', 'cookie-secret-000', 'wrong-key-456']) {
        expect({ secret, logged: log.includes(secret) }).toEqual({ secret, logged: false });
      }
    } finally {
      await built.close();
      await removeDir(dataDir);
    }
  });
});
