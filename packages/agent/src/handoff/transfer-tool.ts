import { z } from 'zod';
import type { Tool } from '../tools/tool.js';
import { ToolExecutionError } from '../tools/tool-execution-error.js';
import { defineControlTool } from './control-tool.js';

export const TRANSFER_TOOL_NAME = 'transfer_to_agent';

/** An agent control can pass to, as the transfer tool lists it. */
export interface TransferTarget {
  name: string;
  description?: string | undefined;
}

/**
 * `transfer_to_agent({agent_name, reason?})` (orxhestra's transfer tool): passes control of the conversation to
 * another of its agents, which answers from the next step on with its own prompt, tools and model. `agent_name`
 * is an enum of the other agents, so the model cannot name one that does not exist.
 */
export function createTransferTool(targets: readonly [TransferTarget, ...TransferTarget[]]): Tool {
  const names = targets.map((target) => target.name) as [string, ...string[]];
  const listing = targets
    .map((target) => `  - ${target.name}${target.description === undefined ? '' : `: ${target.description}`}`)
    .join('\n');
  const parameters = z.object({
    agent_name: z.enum(names).describe(`The agent to transfer to. Choose from:\n${listing}`),
    reason: z.string().optional().describe('Brief explanation of why this agent is being called.'),
  });
  return defineControlTool({
    name: TRANSFER_TOOL_NAME,
    description:
      'Transfer the conversation to a specialized agent. Use this when another agent is better suited to handle ' +
      'the request; it continues from the next step with the whole conversation so far.',
    parameters,
    annotations: { title: TRANSFER_TOOL_NAME, readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    run: async (args, context) => {
      const transfer = context.conversation?.transferControl;
      if (transfer === undefined) {
        throw new ToolExecutionError(TRANSFER_TOOL_NAME, 'transfer_to_agent only runs inside a conversation.');
      }
      const reason = args.reason?.trim() ?? '';
      await transfer(args.agent_name, reason, { llmResponseId: context.llmResponseId });
      return `Transferred control to agent '${args.agent_name}'${reason === '' ? '' : ` (${reason})`}.`;
    },
  }) as unknown as Tool;
}
