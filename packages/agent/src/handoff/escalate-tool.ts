import { z } from 'zod';
import type { Tool } from '../tools/tool.js';
import { ToolExecutionError } from '../tools/tool-execution-error.js';
import { defineControlTool } from './control-tool.js';

export const ESCALATE_TOOL_NAME = 'escalate';

// Trimmed before the length check: a blank reason would stop two runs and tell the human nothing.
const parameters = z.object({
  reason: z.string().trim().min(1).describe('What a human must look at before the work can go on.'),
});

/**
 * `escalate({reason})`: a sub-agent stops its own run and its parent's, for a human to look (orxhestra's
 * `escalate` action). Its conversation pauses; the delegate tool tells the parent, whose run pauses too.
 */
export const escalateTool: Tool = defineControlTool({
  name: ESCALATE_TOOL_NAME,
  description:
    'Stop and hand the problem to a human: your run ends and so does the run of the agent that gave you the ' +
    'task. Use it only when you cannot or must not go on (missing permission, an unsafe or ambiguous request).',
  parameters,
  annotations: { title: ESCALATE_TOOL_NAME, readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  run: async (args, context) => {
    const escalate = context.conversation?.escalate;
    if (escalate === undefined)
      throw new ToolExecutionError(ESCALATE_TOOL_NAME, 'escalate only runs inside a conversation.');
    await escalate(args.reason);
    return `Escalated: ${args.reason}. Your run ends here.`;
  },
}) as unknown as Tool;
