import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Background, startBackground } from './helpers/background.js';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
const workspace = tempDir();
const env = { X_HOME: home.path };
let server: Background;
let url: string;

/** Creates a conversation on the server whose offline model runs `echo`, then finishes. */
async function createConversation(): Promise<string> {
  const response = await fetch(`${url}/api/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      agent: {
        llm: { model: 'offline' },
        tools: [{ name: 'TerminalTool' }],
        x_offline_script: [
          {
            content: 'Saying hello.',
            toolCalls: [{ name: 'terminal', arguments: { command: 'echo hello-from-server' } }],
          },
          { toolCalls: [{ name: 'finish', arguments: { message: 'Said hello.' } }] },
        ],
      },
      workspace: { working_dir: workspace.path },
    }),
  });
  expect(response.status).toBeLessThan(300);
  const info = (await response.json()) as { id: string };
  return info.id;
}

beforeAll(async () => {
  server = startBackground(
    ['serve', '--testing', '--port', '0', '--data-dir', `${home.path}/server`, '--workspace-root', workspace.path],
    env,
  );
  url = (await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, undefined, 'stderr'))[1] ?? '';
});
afterAll(async () => {
  await server.interrupt();
  home.remove();
  workspace.remove();
});

describe('x serve, send and tail', () => {
  it('serves on loopback and says where conversations are stored', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The location line follows the listening line; it may arrive in a later chunk of output.
    const escaped = `${home.path}/server/conversations`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await server.waitFor(new RegExp(escaped), undefined, 'stderr');
    // The web viewer is served at the root: the banner says where.
    await server.waitFor(/viewer\s+http:\/\/127\.0\.0\.1:\d+\//, undefined, 'stderr');
  });

  it('writes the banner to stderr and only JSON log lines to stdout (not a terminal)', async () => {
    const logged = startBackground(
      ['serve', '--port', '0', '--log-level', 'info', '--data-dir', `${home.path}/logged`],
      env,
    );
    try {
      const loggedUrl = (await logged.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, undefined, 'stderr'))[1];
      await fetch(`${loggedUrl}/alive`);
      await logged.waitFor(/"msg":"request completed"/);
      expect(logged.stderr).toContain('/docs');
    } finally {
      await logged.interrupt();
    }
    const lines = logged.stdout.split('\n').filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({ level: expect.any(Number), msg: expect.any(String) });
    expect(logged.stdout).not.toContain('listening on http');
  });

  it('tail exits 1 at once when the first connection fails, instead of retrying forever', async () => {
    const refused = await runCli(['tail', 'http://127.0.0.1:9', '0123abcd-0000-4000-8000-000000000000'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/could not open the event stream of http:\/\/127\.0\.0\.1:9/);
    expect(refused.stderr).not.toContain('retrying');
    // A server that accepts the connection and never answers: the connect timeout ends it.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const hung = await runCli(
        ['tail', `http://127.0.0.1:${port}`, '0123abcd-0000-4000-8000-000000000000', '--connect-timeout', '300'],
        { env },
      );
      expect(hung.code).toBe(1);
      expect(hung.stderr).toContain('Timed out after 300 ms');
      expect(hung.stderr).not.toContain('retrying');
    } finally {
      silent.close();
    }
  });

  it('sends a message and runs it, showing the events; tail follows the same events live', async () => {
    const id = await createConversation();
    const tail = startBackground(['tail', url, id], env);
    // Following once it has shown the conversation so far (its first event), before anything is sent.
    await tail.waitFor(/^⚙ System prompt .* #0$/m);

    const sent = await runCli(['send', url, id, 'Please say hello', '--run'], { env });
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/▶ User #\d+\n {2}Please say hello/);
    expect(sent.stdout).toContain('$ echo hello-from-server');
    expect(sent.stdout).toMatch(/↳ terminal exit 0 #\d+\n {2}│ hello-from-server/);
    expect(sent.stdout).toContain('✔ Finished.');

    await tail.waitFor(/✔ finish #\d+\n {2}Said hello\./);
    expect(tail.stdout).toMatch(/^⚙ System prompt .* #0$/m);
    expect(tail.stdout).toMatch(/▶ User #1\n {2}Please say hello/);
    expect(tail.stdout.match(/│ hello-from-server\n/g)).toHaveLength(1);
    const indices = [...tail.stdout.matchAll(/#(\d+)$/gm)].map((match) => Number(match[1]));
    expect(indices).toEqual([...indices].sort((a, b) => a - b));
    expect(new Set(indices).size).toBe(indices.length);
    expect(await tail.interrupt()).toBe(0);
    expect(tail.stderr).toMatch(/Stopped at event #\d+/);

    const later = startBackground(['tail', url, id, '--from', '3'], env);
    await later.waitFor(/Said hello\./);
    expect(later.stdout).not.toContain('#0');
    expect(later.stdout).not.toContain('Please say hello');
    expect(await later.interrupt()).toBe(0);
  });

  it('tail resumes without gaps or repeats after the server restarts', async () => {
    const data = `${home.path}/restarting`;
    let first = startBackground(
      ['serve', '--testing', '--port', '0', '--data-dir', data, '--workspace-root', workspace.path],
      env,
    );
    const restartUrl = (await first.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, undefined, 'stderr'))[1] ?? '';
    const port = new URL(restartUrl).port;
    const saved = url;
    url = restartUrl;
    try {
      const id = await createConversation();
      const tail = startBackground(['tail', restartUrl, id], env);
      expect((await runCli(['send', restartUrl, id, 'First', '--run'], { env })).code).toBe(0);
      await tail.waitFor(/Said hello\./);

      expect(await first.interrupt()).toBe(0);
      first = startBackground(
        ['serve', '--testing', '--port', port, '--data-dir', data, '--workspace-root', workspace.path],
        env,
      );
      await first.waitFor(/listening on/, undefined, 'stderr');
      expect((await runCli(['send', restartUrl, id, 'Second', '--run'], { env })).code).toBe(0);

      await tail.waitFor(/Said hello\.[\s\S]*Said hello\./);
      expect(tail.stderr).toMatch(/Connection lost/);
      expect(tail.stderr).toMatch(/Reconnected; resuming at event #\d+/);
      const indices = [...tail.stdout.matchAll(/#(\d+)$/gm)].map((match) => Number(match[1]));
      expect(new Set(indices).size).toBe(indices.length);
      expect(indices).toEqual([...indices].sort((a, b) => a - b));
      expect(tail.stdout).toMatch(/▶ User #\d+\n {2}First[\s\S]*▶ User #\d+\n {2}Second/);
      expect(await tail.interrupt()).toBe(0);
    } finally {
      url = saved;
      await first.interrupt();
    }
  });

  it('queues a message without --run', async () => {
    const id = await createConversation();
    const sent = await runCli(['send', url, id, 'Just a note'], { env });
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain(`Sent to ${id}`);
    const events = await fetch(`${url}/api/conversations/${id}/events/count`);
    expect(Number(await events.text())).toBe(2);
  });

  it('exits 3 for a conversation the server does not know', async () => {
    const missing = '0123abcd-0000-4000-8000-000000000000';
    for (const args of [
      ['tail', url, missing],
      ['send', url, missing, 'hello'],
    ]) {
      const result = await runCli(args, { env });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`Conversation ${missing} not found on ${url}`);
    }
  });

  it('exits 1 with a hint when no server is listening', async () => {
    const result = await runCli(['send', 'http://127.0.0.1:9', '0123abcd-0000-4000-8000-000000000000', 'hello'], {
      env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('serve refuses to bind beyond loopback without a key, unless --insecure-no-key', async () => {
    const refused = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--data-dir', `${home.path}/open`], {
      env,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Refusing to listen on 0.0.0.0 without a session API key');
    expect(refused.stderr).toContain('--insecure-no-key');
    const open = startBackground(
      ['serve', '--host', '0.0.0.0', '--port', '0', '--insecure-no-key', '--data-dir', `${home.path}/open`],
      env,
    );
    try {
      await open.waitFor(/--insecure-no-key/, undefined, 'stderr');
    } finally {
      await open.interrupt();
    }
  });

  it('serve without --testing refuses scripted agents', async () => {
    const plain = startBackground(['serve', '--port', '0', '--data-dir', `${home.path}/plain`], env);
    try {
      const plainUrl = (await plain.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, undefined, 'stderr'))[1] ?? '';
      const response = await fetch(`${plainUrl}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agent: { llm: { model: 'offline' }, x_offline_script: [{ content: 'hi' }] } }),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('x_offline_script');
    } finally {
      await plain.interrupt();
    }
  });
});
