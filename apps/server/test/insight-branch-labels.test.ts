// How the viewer's branch picture names a segment: by its first message, prefixed with who said it, on one line
// and clipped to 80 characters (the 80th an ellipsis) only when longer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, waitForIdle } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

async function labelsOf(text: string): Promise<string[]> {
  server.llm.push(finishReply('done'));
  const created = await server.call(
    'POST',
    '/api/conversations',
    createRequest(server.llm, { initial_message: { content: text } }),
  );
  expect(created.status).toBe(201);
  const id = (created.json as { id: string }).id;
  await waitForIdle(server, id);
  const branches = await server.call('GET', `/api/conversations/${id}/branches`);
  expect(branches.status).toBe(200);
  return (branches.json as { segments: { label: string }[] }).segments.map((segment) => segment.label);
}

describe('branch segment labels', () => {
  it('are the first message on one line, clipped to 80 characters only when longer', async () => {
    const exactly = 'x'.repeat(80);
    expect(await labelsOf(exactly)).toContain(`user: ${exactly}`);
    expect(await labelsOf('y'.repeat(81))).toContain(`user: ${'y'.repeat(79)}…`);
    const words = Array.from({ length: 30 }, (_, index) => `word${index}`);
    const long = `  ${words.join(' \n\t ')}  `;
    const oneLine = words.join(' ');
    const clipped = `${oneLine.slice(0, 79)}…`;
    expect(clipped).toHaveLength(80);
    expect(await labelsOf(long)).toContain(`user: ${clipped}`);
  });
});
