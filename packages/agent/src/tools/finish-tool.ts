import { z } from 'zod';
import { defineTool } from './tool.js';

export const finishParameters = z.object({
  message: z.string().describe('Final message to send to the user.'),
});

/** `finish` (§4.4): ends the task; its observation repeats the message. */
export const finishTool = defineTool({
  name: 'finish',
  description:
    'Signals the completion of the current task or conversation.\n\n' +
    'Use this tool when:\n' +
    "- You have successfully completed the user's requested task\n" +
    '- You cannot proceed further due to technical limitations or missing information\n\n' +
    'The message should include:\n' +
    '- A clear summary of actions taken and their results\n' +
    '- Any next steps for the user\n' +
    "- Explanation if you're unable to complete the task\n" +
    '- Any follow-up questions if more information is needed',
  parameters: finishParameters,
  annotations: {
    title: 'finish',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  execute: ({ message }) => ({ content: message }),
});
