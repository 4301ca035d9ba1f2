import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** The JSON-RPC error an MCP call was refused with (the call must be refused, not answered with a tool result). */
export async function mcpRefusalOf(call: Promise<unknown>): Promise<McpError> {
  const outcome = await call.then(
    (result) => result,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(McpError);
  return outcome as McpError;
}
