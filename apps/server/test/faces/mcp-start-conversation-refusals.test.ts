// MCP's start_conversation, given a conversation the server refuses to create (a 4xx: a working directory outside
// the workspace root), fails as the caller's invalid arguments naming `arguments.conversation`, with the reason; a
// failure of the server's own (its workspace root deleted) is thrown as it is (workspace-gone-faces.test.ts).
import { describe, expect, it } from 'vitest';
import { createManagerHost } from '../../src/faces/mcp/manager-host.js';
import { McpToolCallError } from '../../src/faces/mcp/mcp-tool-call-error.js';
import { managersStoppedAfterEach, offlineRequest, recordingLogger } from '../support/in-process-manager.js';

const start = managersStoppedAfterEach();

describe('MCP start_conversation refused by the server', () => {
  it('fails as invalid arguments naming arguments.conversation for a working directory outside the root', async () => {
    const { manager, listing } = await start();
    const host = createManagerHost(manager, { listing, logger: recordingLogger().logger });
    const refused = await host.create(offlineRequest({ workspace: { working_dir: '/' } })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(McpToolCallError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({
      reason: 'invalid_arguments',
      details: { tool: 'start_conversation', path: 'arguments.conversation' },
    });
    expect((refused as Error).message).toContain("start_conversation: workspace.working_dir: '/' is outside");
  });
});
