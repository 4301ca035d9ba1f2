import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { resolveServerConfig } from './server-config.js';
import { ServerConfigError } from './server-config-error.js';

describe('replica settings', () => {
  it('defaults the lease ttl and the recovery interval, and leaves interruptedActions to the run (report)', () => {
    const config = resolveServerConfig({});
    expect(config).toMatchObject({ leaseTtlMs: 15_000, recoveryIntervalMs: 5_000 });
    expect(config.interruptedActions).toBeUndefined();
  });

  it('reads them from the environment; flags win over it', () => {
    const env = {
      X_SERVER_INTERRUPTED_ACTIONS: 'confirm',
      X_SERVER_LEASE_TTL_MS: '2000',
      X_SERVER_RECOVERY_INTERVAL_MS: '0',
    };
    expect(resolveServerConfig(env)).toMatchObject({
      interruptedActions: 'confirm',
      leaseTtlMs: 2000,
      recoveryIntervalMs: 0,
    });
    expect(resolveServerConfig(env, { interruptedActions: 'rerun' }).interruptedActions).toBe('rerun');
  });

  it('reads the event-log layout (files by default, segment from X_SERVER_EVENT_LOG_LAYOUT), refusing others', () => {
    expect(resolveServerConfig({}).eventLogLayout).toBe('files');
    expect(resolveServerConfig({ X_SERVER_EVENT_LOG_LAYOUT: 'segment' }).eventLogLayout).toBe('segment');
    expect(() => resolveServerConfig({ X_SERVER_EVENT_LOG_LAYOUT: 'wal' })).toThrow(/eventLogLayout/);
  });

  it('refuses an unknown mode or a ttl too short to renew, naming the field', () => {
    const unknown = (() => {
      try {
        return resolveServerConfig({ X_SERVER_INTERRUPTED_ACTIONS: 'retry' });
      } catch (error) {
        return error;
      }
    })();
    expect(unknown).toBeInstanceOf(ServerConfigError);
    expect(unknown).toMatchObject({ setting: 'interruptedActions', variable: 'X_SERVER_INTERRUPTED_ACTIONS' });
    expect((unknown as ServerConfigError).cause).toBeInstanceOf(ZodError);
    expect(() => resolveServerConfig({}, { leaseTtlMs: 10 })).toThrow(/leaseTtlMs/);
  });
});

describe('mcpMaxSessions', () => {
  it('defaults to 100, reads X_SERVER_MCP_MAX_SESSIONS, and refuses a cap below 1 naming the field', () => {
    expect(resolveServerConfig({}).mcpMaxSessions).toBe(100);
    expect(resolveServerConfig({ X_SERVER_MCP_MAX_SESSIONS: '7' }).mcpMaxSessions).toBe(7);
    expect(() => resolveServerConfig({ X_SERVER_MCP_MAX_SESSIONS: '0' })).toThrow(/mcpMaxSessions/);
    expect(() => resolveServerConfig({ X_SERVER_MCP_MAX_SESSIONS: 'many' })).toThrow(/mcpMaxSessions/);
  });
});

describe('mcpMaxSessionsPerPrincipal', () => {
  it('is unset by default (the server derives it), reads its variable, and refuses a share below 1 naming it', () => {
    expect(resolveServerConfig({}).mcpMaxSessionsPerPrincipal).toBeUndefined();
    expect(resolveServerConfig({ X_SERVER_MCP_MAX_SESSIONS_PER_PRINCIPAL: '3' }).mcpMaxSessionsPerPrincipal).toBe(3);
    expect(() => resolveServerConfig({ X_SERVER_MCP_MAX_SESSIONS_PER_PRINCIPAL: '0' })).toThrow(
      /mcpMaxSessionsPerPrincipal/,
    );
  });
});

describe('mcpConversation', () => {
  it('reads the create body from the JSON file X_SERVER_MCP_CONVERSATION names, and names a bad one', async () => {
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'x-mcp-config-'));
    try {
      const good = join(dir, 'agent.json');
      await writeFile(good, JSON.stringify({ agent: { llm: { model: 'gpt-test' } } }));
      expect(resolveServerConfig({ X_SERVER_MCP_CONVERSATION: good }).mcpConversation?.agent.llm).toMatchObject({
        model: 'gpt-test',
      });
      const bad = join(dir, 'bad.json');
      await writeFile(bad, '{ not json');
      expect(() => resolveServerConfig({ X_SERVER_MCP_CONVERSATION: bad })).toThrow(
        `X_SERVER_MCP_CONVERSATION: ${bad} is not JSON`,
      );
      expect(() => resolveServerConfig({ X_SERVER_MCP_CONVERSATION: join(dir, 'none.json') })).toThrow(
        /^X_SERVER_MCP_CONVERSATION: cannot read /,
      );
      await writeFile(bad, JSON.stringify({ agent: 'no' }));
      expect(() => resolveServerConfig({ X_SERVER_MCP_CONVERSATION: bad })).toThrow(
        /^mcpConversation\.agent(\.llm)? \(X_SERVER_MCP_CONVERSATION\): /,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
