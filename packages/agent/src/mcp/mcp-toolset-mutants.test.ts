// Which tools of which servers the model is offered: a name no provider takes, a built-in's name or one that would
// shadow it, a name two servers offer, a name one server offers twice, each left out with one error per server
// naming why; the other tools stay. Servers are scripted MCP servers on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedTool, startScriptedHttpServer } from './__fixtures__/scripted-http-server.js';
import { McpToolNameError } from './mcp-tool-name-error.js';
import { createMcpToolset, type McpToolset } from './mcp-toolset.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

/** A toolset of scripted servers, each offering the named tools (on one page). */
async function toolsetOffering(servers: Record<string, string[]>): Promise<McpToolset> {
  const config: Record<string, { url: string }> = {};
  for (const [name, tools] of Object.entries(servers)) {
    const server = await startScriptedHttpServer(() => ({ tools: tools.map(scriptedTool) }));
    cleanups.push(() => server.close());
    config[name] = { url: server.url };
  }
  const set = createMcpToolset(config);
  cleanups.push(() => set.close());
  return set;
}

const refusedOf = (errors: unknown[]) =>
  Object.fromEntries(
    errors.map((error) => {
      expect(error).toBeInstanceOf(McpToolNameError);
      return [(error as McpToolNameError).server, (error as McpToolNameError).refused];
    }),
  );

describe('McpToolset.start leaves out', () => {
  it('names no provider takes, and keeps the valid ones of the same server', async () => {
    const set = await toolsetOffering({ a: ['fine', 'has space', 'x'.repeat(65), 'y'.repeat(64)] });
    const { tools, errors } = await set.start();
    expect(tools.map((tool) => tool.name)).toEqual(['fine', 'y'.repeat(64)]);
    const reason = 'not a valid tool name: use 1-64 letters, digits, _ or -';
    expect(refusedOf(errors)).toEqual({
      a: [
        { name: 'has space', reason },
        { name: 'x'.repeat(65), reason },
      ],
    });
  });

  it("a built-in tool's name, and a name that would shadow one", async () => {
    const set = await toolsetOffering({ a: ['terminal', 'own'], b: ['Terminal'] });
    const { tools, errors } = await set.start({ reserved: new Map([['terminal', 'terminal']]) });
    expect(tools.map((tool) => tool.name)).toEqual(['own']);
    expect(refusedOf(errors)).toEqual({
      a: [{ name: 'terminal', reason: "the built-in tool 'terminal' has that name" }],
      b: [{ name: 'Terminal', reason: "it would shadow the built-in tool 'terminal'" }],
    });
  });

  it('a name two servers offer, from both, naming the other server once', async () => {
    const set = await toolsetOffering({ a: ['shared', 'shared', 'only_a'], b: ['Shared', 'only_b'] });
    const { tools, errors } = await set.start();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['only_a', 'only_b']);
    expect(refusedOf(errors)).toEqual({
      a: [{ name: 'shared', reason: "also offered by MCP server 'b'" }],
      b: [{ name: 'Shared', reason: "also offered by MCP server 'a'" }],
    });
  });

  it('a name one server offers twice, listed once', async () => {
    const set = await toolsetOffering({ a: ['twice', 'once', 'twice'] });
    const { tools, errors } = await set.start();
    expect(tools.map((tool) => tool.name)).toEqual(['once']);
    expect(refusedOf(errors)).toEqual({ a: [{ name: 'twice', reason: 'offered more than once by this server' }] });
    expect((errors[0] as McpToolNameError).message).toBe(
      "MCP server 'a' offers a tool that is left out: 'twice' (offered more than once by this server). Rename it in the server, or remove the server from mcp_config.",
    );
  });

  it('nothing from servers whose names are all distinct and valid', async () => {
    const set = await toolsetOffering({ a: ['one', 'two'], b: ['three'] });
    expect(set.serverNames).toEqual(['a', 'b']);
    const { tools, errors } = await set.start({ reserved: new Map([['terminal', 'terminal']]) });
    expect(errors).toEqual([]);
    expect(tools.map((tool) => tool.name)).toEqual(['one', 'two', 'three']);
  });
});
