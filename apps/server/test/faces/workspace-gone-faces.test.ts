// A workspace root deleted while the server runs, as the protocol faces report it: the server's own failure (REST's
// 409 `workspace_gone`), never the caller's bad arguments. A2A through the official client answers an internal error,
// not invalid params, for a new task and for a follow-up's run (the model is asked nothing); MCP's start_conversation
// fails as the server failing, not as `invalid_arguments`.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Task } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { createManagerHost } from '../../src/faces/mcp/manager-host.js';
import { McpToolCallError } from '../../src/faces/mcp/mcp-tool-call-error.js';
import { WorkspaceGoneError } from '../../src/workspace/workspace-gone-error.js';
import { finishReply } from '../helpers.js';
import { managersStoppedAfterEach, offlineRequest, recordingLogger } from '../support/in-process-manager.js';
import { send, textPart, useA2aFixture, userMessage } from './a2a-client-support.js';

const fixture = useA2aFixture();
const start = managersStoppedAfterEach();

describe('a deleted workspace root, through the protocol faces', () => {
  it('A2A: a follow-up to a task is refused its run with an internal error, the model asked nothing', async () => {
    const root = join(fixture.server.dataDir, 'workspaces');
    fixture.server.llm.push(finishReply('first answer'));
    const task = (await fixture.client.sendMessage(send(userMessage([textPart('hello')])))) as Task;
    const asked = fixture.server.llm.requests.length;
    await rm(root, { recursive: true, force: true });
    const followUp = userMessage([textPart('and then?')], { taskId: task.id, contextId: task.contextId });
    await expect(fixture.client.sendMessage(send(followUp))).rejects.toMatchObject({
      name: 'JsonRpcTransportError',
      envelopeCode: -32603,
      message: expect.stringContaining(`The server's workspace root ${root} has been deleted`),
    });
    expect(fixture.server.llm.requests.length).toBe(asked);
    await mkdir(root, { recursive: true });
  });

  it('A2A: a new task is refused with an internal error naming the root, not invalid params', async () => {
    const root = join(fixture.server.dataDir, 'workspaces');
    await rm(root, { recursive: true, force: true });
    const refused = await fixture.client.sendMessage(send(userMessage([textPart('hello')]))).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refused).toMatchObject({ name: 'JsonRpcTransportError', envelopeCode: -32603, reason: 'INTERNAL_ERROR' });
    expect(refused?.message).toContain(`The server's workspace root ${root} has been deleted`);
    expect(refused).not.toMatchObject({ name: 'RequestMalformedError' });
  });

  it('MCP: start_conversation fails with the workspace error itself, not as invalid arguments', async () => {
    const { manager, listing, workspaceRoot } = await start();
    const host = createManagerHost(manager, {
      listing,
      logger: recordingLogger().logger,
      defaultConversation: offlineRequest(),
    });
    await rm(workspaceRoot, { recursive: true, force: true });
    const refused = await host.create(undefined).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(McpToolCallError.isInstance(refused)).toBe(false);
    expect(WorkspaceGoneError.isInstance(refused)).toBe(true);
  });
});
