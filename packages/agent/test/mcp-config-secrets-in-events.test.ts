// An MCP server's config holds secrets (its env values, headers and auth: the reference's SecretStr fields, which
// base_state.json and the server's API redact). The server itself may print them where no one meant it to: a token
// it was refused, quoted from its stderr by the start failure, or echoed back in a tool's result. Neither may reach
// the conversation's events.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const envToken = 'ghp_envtoken0123456789abcdefghijklmnop';
const bearerToken = 'bearer-token-9876543210zyxwvutsrq';
const cutToken = 'cut-token-ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A stdio MCP server (newline-delimited JSON-RPC) with one tool that answers with its credentials. */
const ECHO_SERVER = `
const { createInterface } = require('node:readline');
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method } = JSON.parse(line);
  if (method === 'initialize')
    send({ id, result: { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'echo', version: '1' } } });
  else if (method === 'tools/list')
    send({ id, result: { tools: [{ name: 'whoami', description: 'Who the server is', inputSchema: { type: 'object' } }] } });
  else if (method === 'tools/call')
    send({ id, result: { content: [{ type: 'text', text: 'logged in with ' + process.env.API_TOKEN + ' sent as ' + process.env.AUTH_HEADER }] } });
  else if (id !== undefined) send({ id, error: { code: -32601, message: 'no ' + method } });
});
`;

function text(events: readonly AnyEvent[]): string {
  return JSON.stringify(events);
}

describe("an MCP server's config secrets", () => {
  it('are hidden in the start failure quoting its stderr, also where the quote cuts one in two', async () => {
    harness = await startHarness([{ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }]);
    // The quoted tail is the last 500 characters: this stderr's tail starts 12 characters into the token.
    const filler = 'x'.repeat(500 - (cutToken.length - 12));
    const agent = harness.agent({
      mcpConfig: {
        mcpServers: {
          refused: {
            command: '/bin/sh',
            args: ['-c', 'echo "401 Unauthorized: bad credentials $GITHUB_TOKEN" >&2; exit 1'],
            env: { GITHUB_TOKEN: envToken },
          },
          cut: {
            command: '/bin/sh',
            args: ['-c', `printf '%s%s' "$CUT_TOKEN" '${filler}' >&2; exit 1`],
            env: { CUT_TOKEN: cutToken },
          },
        },
      },
    });
    const { conversation, events } = await harness.conversation({ agent });
    await conversation.sendMessage('hi');
    await conversation.run();

    const failures = events.flatMap((event) => (event.kind === 'ConversationErrorEvent' ? [event.detail] : []));
    const refused = failures.find((detail) => detail.includes("'refused'"));
    const cut = failures.find((detail) => detail.includes("'cut'"));
    // What the server said is still told, without the token.
    expect(refused).toContain('server stderr: 401 Unauthorized: bad credentials <secret-hidden>');
    expect(cut).toContain(`server stderr: <secret-hidden>${filler}`);
    expect(text(events)).not.toContain(envToken);
    expect(text(events)).not.toContain(cutToken.slice(12));
  });

  it("are hidden in a tool's result that echoes them back", async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'whoami', arguments: {} }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
    ]);
    const script = join(harness.workspace, 'echo-server.cjs');
    await writeFile(script, ECHO_SERVER);
    const agent = harness.agent({
      mcpConfig: {
        mcpServers: {
          echo: {
            command: process.execPath,
            args: [script],
            env: { API_TOKEN: envToken, AUTH_HEADER: `Bearer ${bearerToken}` },
          },
        },
      },
    });
    const { conversation, events } = await harness.conversation({ agent });
    await conversation.sendMessage('who are you?');
    const result = await conversation.run();
    expect(result.status).toBe('finished');

    const observation = events.find((event) => event.kind === 'ObservationEvent' && event.tool_name === 'whoami');
    expect(JSON.stringify(observation)).toContain('logged in with <secret-hidden> sent as <secret-hidden>');
    expect(text(events)).not.toContain(envToken);
    expect(text(events)).not.toContain(bearerToken);
  });
});
