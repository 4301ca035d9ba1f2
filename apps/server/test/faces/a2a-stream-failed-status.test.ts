// The failed status of a streamed A2A task, through the official client (`@a2a-js/sdk`): the log records the change
// to `error` before the error itself, so the stream holds a failed status back until the next item or the run's
// end (`streamTask`). A client sees one failed status, the last item of the stream, which then ends, and it says why.
import type { TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { collect, type StreamPayload, send, textPart, useA2aFixture, userMessage } from './a2a-client-support.js';

const fixture = useA2aFixture();

const isFailedStatus = (item: StreamPayload): boolean =>
  item?.$case === 'statusUpdate' && item.value.status?.state === TaskState.TASK_STATE_FAILED;

/** The text parts of a status update's message. */
const messageText = (update: TaskStatusUpdateEvent): string =>
  (update.status?.message?.parts ?? [])
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');

describe('A2A failed status in a stream, driven by @a2a-js/sdk', () => {
  it('sends the failed status once, as the last item of the stream, carrying the error', async () => {
    const { client, server } = fixture;
    server.llm.push({ error: { status: 400, message: 'the provider refused this request' } });
    // The stream is read to its end: the server closes it after the terminal status, so the collection ends.
    const items = await collect(client.sendMessageStream(send(userMessage([textPart('Fail, streaming')]))));

    expect(items.filter(isFailedStatus)).toHaveLength(1);
    const last = items.at(-1);
    expect(isFailedStatus(last)).toBe(true);
    const failed = (last as { value: TaskStatusUpdateEvent }).value;
    expect(messageText(failed)).toContain('the provider refused this request');
    // Final: the task the server keeps is failed too, so nothing follows on this stream or another.
    const task = await client.getTask({ tenant: '', id: failed.taskId, historyLength: undefined });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
  });
});
