import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineControlTool } from '../src/handoff/control-tool.js';
import { escalateTool } from '../src/handoff/escalate-tool.js';
import { createTransferTool } from '../src/handoff/transfer-tool.js';
import type { ToolContext, ToolConversation } from '../src/tools/tool.js';
import { ToolExecutionError } from '../src/tools/tool-execution-error.js';

// The tools a conversation adds, run on their own against a recording conversation.
function recordingContext() {
  const calls: unknown[][] = [];
  const conversation = {
    transferControl: async (...args: unknown[]) => {
      calls.push(['transfer', ...args]);
    },
    escalate: async (...args: unknown[]) => {
      calls.push(['escalate', ...args]);
    },
  } as unknown as ToolConversation;
  const context: ToolContext = { workspace: '/nowhere', conversation, llmResponseId: 'response-1' };
  return { calls, context };
}

const textOf = (observation: { content: unknown }) => (observation.content as { text: string }[])[0]!.text;

const transfer = createTransferTool([
  { name: 'billing', description: 'Handles refunds.' },
  { name: 'plain', description: undefined },
]);

describe('transfer_to_agent', () => {
  it('lists the agents it can pass to, with their descriptions, in the argument the model fills', () => {
    const schema = transfer.inputSchema as {
      properties: { agent_name: { enum: string[]; description: string } };
      required: string[];
    };
    expect(schema.properties.agent_name.enum).toEqual(['billing', 'plain']);
    expect(schema.properties.agent_name.description).toBe(
      'The agent to transfer to. Choose from:\n  - billing: Handles refunds.\n  - plain',
    );
    expect(schema.required).toEqual(['agent_name']);
    expect(transfer.definitionFields).toEqual({
      mcp_tool: {
        name: 'transfer_to_agent',
        description: transfer.description,
        inputSchema: transfer.inputSchema,
        annotations: transfer.annotations,
      },
    });
  });

  it('is not read-only, so it is risk-rated and confirmed like any action', () => {
    expect(transfer.readOnly).toBe(false);
    expect(transfer.annotations).toEqual({
      title: 'transfer_to_agent',
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: false,
    });
  });

  it('passes control with the trimmed reason and says so', async () => {
    const { calls, context } = recordingContext();
    const observation = await transfer.execute({ data: { agent_name: 'billing', reason: '  a refund ' } }, context);
    expect(calls).toEqual([['transfer', 'billing', 'a refund', { llmResponseId: 'response-1' }]]);
    expect(observation).toMatchObject({ is_error: false, tool_name: 'transfer_to_agent' });
    expect(textOf(observation)).toBe("Transferred control to agent 'billing' (a refund).");
    const quiet = await transfer.execute({ data: { agent_name: 'plain', reason: '   ' } }, context);
    expect(calls[1]).toEqual(['transfer', 'plain', '', { llmResponseId: 'response-1' }]);
    expect(textOf(quiet)).toBe("Transferred control to agent 'plain'.");
  });

  it('refuses an agent it does not list and a call outside a conversation, as errors the model reads', async () => {
    const { calls, context } = recordingContext();
    const unknown = await transfer.execute({ data: { agent_name: 'nobody' } }, context).catch((error) => error);
    expect(unknown).toBeInstanceOf(ToolExecutionError);
    expect((unknown as Error).message).toMatch(/^Invalid arguments for tool 'transfer_to_agent': agent_name: /);
    const shapeless = await transfer.execute({ data: 'billing' }, context).catch((error) => error);
    expect((shapeless as Error).message).toMatch(/^Invalid arguments for tool 'transfer_to_agent': data: /);
    expect(calls).toEqual([]);
    const outside = await transfer
      .execute({ data: { agent_name: 'billing' } }, { workspace: '/nowhere' })
      .catch((error) => error);
    expect(outside).toBeInstanceOf(ToolExecutionError);
    expect((outside as Error).message).toBe('transfer_to_agent only runs inside a conversation.');
  });
});

describe('escalate', () => {
  it('stops the run with the reason, and needs one', async () => {
    const { calls, context } = recordingContext();
    expect(escalateTool.readOnly).toBe(false);
    expect(escalateTool.annotations).toEqual({
      title: 'escalate',
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: false,
    });
    const observation = await escalateTool.execute({ data: { reason: 'needs a human' } }, context);
    expect(calls).toEqual([['escalate', 'needs a human']]);
    expect(observation).toMatchObject({ is_error: false, tool_name: 'escalate' });
    expect(textOf(observation)).toBe('Escalated: needs a human. Your run ends here.');
    await expect(escalateTool.execute({ data: { reason: '' } }, context)).rejects.toBeInstanceOf(ToolExecutionError);
    await expect(escalateTool.execute({ data: { reason: ' \n\t' } }, context)).rejects.toThrow(/reason/);
    expect(calls).toHaveLength(1);
    await escalateTool.execute({ data: { reason: '  padded\n' } }, context);
    expect(calls.at(-1)).toEqual(['escalate', 'padded']);
    const outside = await escalateTool
      .execute({ data: { reason: 'x' } }, { workspace: '/nowhere' })
      .catch((error) => error);
    expect(outside).toBeInstanceOf(ToolExecutionError);
    expect((outside as Error).message).toBe('escalate only runs inside a conversation.');
  });
});

describe('defineControlTool', () => {
  it('is not read-only unless its annotations say so', () => {
    const spec = { name: 'noop', description: 'Does nothing.', parameters: z.object({}), run: async () => 'ok' };
    expect(defineControlTool({ ...spec, annotations: {} }).readOnly).toBe(false);
    expect(defineControlTool({ ...spec, annotations: { readOnlyHint: true } }).readOnly).toBe(true);
  });
});
