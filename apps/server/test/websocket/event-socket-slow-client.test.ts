import { createEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeConversation,
  type FakeSocketServer,
  startFakeSocketServer,
} from '../support/fake-event-socket-host.js';
import { connectRecording, persistedFrames } from '../support/socket-client.js';

const BIG_TEXT = 'x'.repeat(32 * 1024);

function bigMessage(index: number) {
  return createEvent('MessageEvent', {
    source: 'agent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text: `${index} ${BIG_TEXT}` }] },
  });
}

describe('event sockets: slow clients', () => {
  let server: FakeSocketServer;
  let conversation: FakeConversation;
  beforeEach(async () => {
    server = await startFakeSocketServer({
      options: { bufferLimitBytes: 256 * 1024, slowClientGraceMs: 300, closeTimeoutMs: 20_000 },
    });
    conversation = await server.addConversation('c1');
  });
  afterEach(() => server.close());

  it('does not hold up another client, and closes the stalled one with 4008', async () => {
    const fast = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    const stalled = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await fast.waitFor((frames) => frames.length === 1);
    await stalled.waitFor((frames) => frames.length === 1);
    stalled.tcp()?.pause();

    const slowClosed = () =>
      server.logs.some((record) => record.level === 'warn' && String(record.args[1]).includes('client too slow'));
    // Fill the kernel buffers and then the process-side queue of the stalled socket (about 30 MB at most).
    let appended = 0;
    while (!slowClosed() && appended < 1000) {
      await conversation.log.append(bigMessage(appended));
      conversation.publish(createEvent('StreamingDeltaEvent', { content: `delta ${appended}` }));
      appended += 1;
      if (appended % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(slowClosed()).toBe(true);
    for (let extra = 0; extra < 10; extra++) await conversation.log.append(bigMessage(appended++));

    // Everything reaches the fast client while the stalled one still has not read a byte.
    await fast.waitFor((frames) => persistedFrames(frames).length === appended, 60_000);
    expect(stalled.frames).toHaveLength(1);
    expect(fast.frames.filter((frame) => frame.kind === 'StreamingDeltaEvent').length).toBeGreaterThan(0);

    stalled.tcp()?.resume();
    expect(await stalled.closed).toEqual({ code: 4008, reason: 'Client too slow' });
    expect(persistedFrames(stalled.frames).length).toBeLessThan(appended);
    fast.ws.close();
  });

  it('keeps a client that catches up within the grace period', async () => {
    const patient = await startFakeSocketServer({
      // A grace no loaded machine comes near: catching up must never depend on how fast the reader runs.
      options: { bufferLimitBytes: 256 * 1024, slowClientGraceMs: 600_000 },
    });
    conversation = await patient.addConversation('c1');
    const reader = connectRecording(`${patient.wsUrl}/sockets/events/c1`);
    await reader.waitFor((frames) => frames.length === 1);
    reader.tcp()?.pause();
    for (let index = 0; index < 200; index++) await conversation.log.append(bigMessage(index));
    await new Promise((resolve) => setTimeout(resolve, 100));
    reader.tcp()?.resume();
    await reader.waitFor((frames) => persistedFrames(frames).length === 200, 60_000);
    expect(patient.logs.some((record) => record.level === 'warn')).toBe(false);
    reader.ws.close();
    expect((await reader.closed).code).toBe(1005);
    await patient.close();
  });
});
