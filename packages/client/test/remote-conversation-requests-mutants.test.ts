import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { XServe } from '@x/browser-testing';
import { createEvent, userMessage } from '@x/events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteConversation } from '../src/index.js';
import { type LoopbackProxy, startLoopbackProxy } from './support/loopback-proxy.js';
import { eventually, finish, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
let proxy: LoopbackProxy;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await proxy?.close();
});

const options = { apiKey: KEY, pollIntervalMs: 50, runTimeoutMs: 90_000 };

const FAILED_RUN = new URL('./fixtures/failed-run.ts', import.meta.url);

describe('what RemoteConversation sends, and what it leaves behind', TEST_TIMEOUT, () => {
  it('sends a message with the role it was given, and the sender', async () => {
    proxy = await startLoopbackProxy(server.url);
    const conversation = await RemoteConversation.create(proxy.url, { ...options, agent: scriptedAgent([]) });
    try {
      // x serve takes only user messages: the refusal names the role it was sent, not one the client chose.
      await expect(
        conversation.sendMessage({ ...userMessage('said for the agent').llm_message, role: 'assistant' }),
      ).rejects.toThrow("role was 'assistant'");
      await conversation.sendMessage('from a named sender', { sender: 'ops-bot' });
      const roles: unknown[] = [];
      for await (const event of conversation.events()) {
        if (event.kind === 'MessageEvent') roles.push(event.llm_message.role);
      }
      expect(roles).toEqual(['user']);
      // x serve accepts `sender` and ignores it; the reference's server records it, so it must be sent.
      const sent = proxy.restTraffic.filter((text) => text.includes('from a named sender'));
      expect(sent.map((text) => JSON.parse(text.slice(text.indexOf('{'))).sender)).toEqual(['ops-bot']);
    } finally {
      await conversation.close();
    }
  });

  it('polls back to back when told to poll every 0 ms', async () => {
    proxy = await startLoopbackProxy(server.url);
    const conversation = await RemoteConversation.create(proxy.url, {
      ...options,
      agent: scriptedAgent([finish('done')]),
      pollIntervalMs: 0,
      snapshotGraceMs: 300,
    });
    try {
      await conversation.sendMessage('hello');
      proxy.muteSockets(true);
      const before = proxy.requests.length;
      expect(await conversation.run()).toEqual({ status: 'finished' });
      const polls = proxy.requests.slice(before).filter((line) => line === `GET /api/conversations/${conversation.id}`);
      // 0 is a valid interval, not "unset": a 2 s default would end this run after at most two polls.
      expect(polls.length).toBeGreaterThan(3);
    } finally {
      proxy.muteSockets(false);
      await conversation.close();
    }
  });

  it('lets the process end once a failed run request is answered and the conversation closed', async () => {
    proxy = await startLoopbackProxy(server.url);
    // Its own Node process: what is left pending (the run's ten-minute timeout, say) would keep it alive.
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(FAILED_RUN), proxy.url, KEY], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    try {
      await eventually(() => output, { timeout: 30_000 }).toContain('created\n');
      proxy.setRest('refuse');
      proxy.dropRest();
      child.stdin.end('go\n');
      await eventually(() => output).toContain('remote_request_failed\n');
      await eventually(() => child.exitCode).toBe(0);
    } finally {
      child.kill();
    }
  });

  it('keeps its state when a full_state snapshot carries no object', async () => {
    proxy = await startLoopbackProxy(server.url);
    const heard: string[] = [];
    const conversation = await RemoteConversation.create(proxy.url, {
      ...options,
      agent: scriptedAgent([]),
      onEvent: (event) => heard.push(event.id),
    });
    try {
      const before = { ...conversation.state };
      const malformed = createEvent('ConversationStateUpdateEvent', { key: 'full_state', value: 'not a state' });
      proxy.injectFrame(JSON.stringify(malformed));
      await eventually(() => heard.includes(malformed.id)).toBe(true);
      expect(conversation.state).toEqual(before);
    } finally {
      await conversation.close();
    }
  });
});
