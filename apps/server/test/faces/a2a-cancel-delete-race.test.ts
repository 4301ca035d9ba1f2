// CancelTask racing a delete of the task's conversation: whichever way they interleave, the official client
// (`@a2a-js/sdk`) gets either the canceled task (the cancel came first) or a TaskNotFoundError saying the task was
// deleted, never an internal error or invalid params, and the conversation stays deleted. Each interleaving is forced (the delete is run from
// inside the cancel, at the step named), not left to timing.
import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagedConversation } from '../../src/conversations/managed-conversation.js';
import { createConversation, finishReply, waitFor } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const deleted = (id: string) => ({
  name: 'TaskNotFoundError',
  message: expect.stringContaining(`Task '${id}' was deleted`),
  envelopeCode: -32001,
});

async function deleteConversation(id: string): Promise<number> {
  return (await fixture.server.call('DELETE', `/api/conversations/${id}`)).status;
}

/** An idle conversation (created without a message), opened, as CancelTask finds it. */
async function idleTask(): Promise<ManagedConversation> {
  const id = await createConversation(fixture.server);
  const managed = await fixture.server.built.manager.require(id);
  await managed.open();
  return managed;
}

async function expectGone(id: string): Promise<void> {
  await expect(fixture.client.getTask({ tenant: '', id, historyLength: undefined })).rejects.toMatchObject({
    name: 'TaskNotFoundError',
  });
  expect(fixture.server.built.manager.wasDeleted(id)).toBe(true);
}

describe('CancelTask racing a delete of its conversation', () => {
  it('answers TaskNotFound when the delete finishes after the task was found, before it is paused', async () => {
    const managed = await idleTask();
    const pause = managed.pause.bind(managed);
    let deleteStatus: number | undefined;
    managed.pause = async () => {
      deleteStatus = await deleteConversation(managed.id);
      return pause();
    };
    await expect(fixture.client.cancelTask({ tenant: '', id: managed.id, metadata: undefined })).rejects.toMatchObject(
      deleted(managed.id),
    );
    expect(deleteStatus).toBe(200);
    await expectGone(managed.id);
  });

  it('answers the canceled task when the delete finishes after the pause: the cancel came first', async () => {
    const managed = await idleTask();
    const pause = managed.pause.bind(managed);
    let deleteStatus: number | undefined;
    managed.pause = async () => {
      await pause();
      deleteStatus = await deleteConversation(managed.id);
    };
    const canceled = await fixture.client.cancelTask({ tenant: '', id: managed.id, metadata: undefined });
    expect(canceled).toMatchObject({ id: managed.id, status: { state: TaskState.TASK_STATE_CANCELED } });
    expect(deleteStatus).toBe(200);
    await expectGone(managed.id);
  });

  it('answers TaskNotFound when the delete finishes while the task is being opened', async () => {
    const managed = await idleTask();
    const open = managed.open.bind(managed);
    let deleteStatus: number | undefined;
    managed.open = async () => {
      if (deleteStatus === undefined) deleteStatus = await deleteConversation(managed.id);
      return open();
    };
    await expect(fixture.client.cancelTask({ tenant: '', id: managed.id, metadata: undefined })).rejects.toMatchObject(
      deleted(managed.id),
    );
    expect(deleteStatus).toBe(200);
    await expectGone(managed.id);
  });

  it('answers TaskNotFound while the delete of a running task is under way, and the delete completes', async () => {
    const held = gate();
    fixture.server.llm.push({ ...finishReply('never seen'), gate: held.promise });
    const contextId = randomUUID();
    const task = await fixture.client.sendMessage({
      ...send(userMessage([textPart('Hold on')], { contextId })),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        historyLength: undefined,
        returnImmediately: true,
      },
    });
    expect(task).toMatchObject({ id: contextId });
    const managed = await fixture.server.built.manager.require(contextId);
    await waitFor(async () => managed.isRunning);
    // The delete waits for the run, held at the model's gate: it is under way until the gate opens.
    const deleting = deleteConversation(contextId);
    await waitFor(async () => managed.isDeleted);
    await expect(fixture.client.cancelTask({ tenant: '', id: contextId, metadata: undefined })).rejects.toMatchObject({
      name: 'TaskNotFoundError',
    });
    held.open();
    expect(await deleting).toBe(200);
    await expectGone(contextId);
  });
});
