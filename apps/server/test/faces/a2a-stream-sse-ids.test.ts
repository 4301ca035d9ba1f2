// The server-sent events of an A2A stream read raw, as a plain SSE client (not `@a2a-js/sdk`) sees them: the opening
// Task covers the log up to the message and has no SSE id; every later event carries the log index of the event it
// comes from as its SSE id, the same index its status update names in `metadata.logIndex`.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply } from '../helpers.js';
import { type A2aFixture, startA2aFixture } from './a2a-client-support.js';

let fixture: A2aFixture;
beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

interface Frame {
  id: number | undefined;
  result: { task?: unknown; statusUpdate?: { metadata?: { logIndex?: number } }; artifactUpdate?: unknown };
}

function framesOf(body: string): Frame[] {
  return body
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const lines = frame.split('\n');
      const id = lines.find((line) => line.startsWith('id: '));
      const data = lines.find((line) => line.startsWith('data: ')) ?? 'data: {}';
      return {
        id: id === undefined ? undefined : Number(id.slice('id: '.length)),
        result: (JSON.parse(data.slice('data: '.length)) as { result: Frame['result'] }).result,
      };
    });
}

describe('the SSE ids of an A2A stream', () => {
  it('are absent on the opening task and the log index of each later event', async () => {
    fixture.server.llm.push(finishReply('Streamed.'));
    const message = { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'Stream please' }] };
    const response = await fetch(`${fixture.server.url}/api/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'SendStreamingMessage', params: { message } }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const [opening, ...rest] = framesOf(await response.text());
    expect(opening?.result.task).toBeDefined();
    expect(opening?.id).toBeUndefined();
    expect(rest.length).toBeGreaterThan(1);
    for (const frame of rest) {
      expect(Number.isInteger(frame.id)).toBe(true);
      if (frame.result.statusUpdate !== undefined) expect(frame.id).toBe(frame.result.statusUpdate.metadata?.logIndex);
    }
    const ids = rest.map((frame) => frame.id ?? -1);
    expect(ids).toEqual([...ids].sort((left, right) => left - right));
  });
});
