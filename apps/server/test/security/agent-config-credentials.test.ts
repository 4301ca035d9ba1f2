import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSecretCipher } from '@x/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentExtensions } from '../../src/conversations/agent-extensions.js';
import { storableAgentConfig } from '../../src/conversations/build-agent.js';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';

/**
 * Credentials an agent config carries beside `llm.api_key`: provider fields the server passes through
 * (`aws_secret_access_key`, an `extra_headers` Authorization), the condenser's own LLM key, and an MCP server URL
 * with a password or a key parameter. None may be shown by the API or written in clear text to the data directory.
 */
const SECRETS = {
  aws: 'AWSSECRETvalue-0001',
  header: 'HEADERSECRETvalue-0002',
  condenser: 'CONDENSERKEYvalue-0003',
  userinfo: 'MCPPASSWORDvalue-0004',
  query: 'MCPQUERYKEYvalue-0005',
};

function agentWithCredentials(baseURL: string): Record<string, unknown> {
  return {
    llm: {
      model: 'gpt-test',
      base_url: baseURL,
      api_key: 'sk-test',
      aws_secret_access_key: SECRETS.aws,
      aws_access_key_id: 'AKIA-not-secret',
      extra_headers: { Authorization: `Bearer ${SECRETS.header}`, 'X-Trace': 'kept' },
    },
    condenser: {
      kind: 'LLMSummarizingCondenser',
      llm: { model: 'gpt-test', base_url: baseURL, api_key: SECRETS.condenser },
      max_size: 80,
    },
    mcp_config: {
      mcpServers: {
        userinfo: { url: `http://agent:${SECRETS.userinfo}@127.0.0.1:1/mcp` },
        query: { url: `http://127.0.0.1:1/mcp?api_key=${SECRETS.query}&team=kept` },
      },
    },
  };
}

async function filesUnder(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(dir.length)] = await readFile(path, 'utf8').catch(() => '');
  }
  return files;
}

/** `where: secret-name` for every secret found in any of the texts. */
function leaks(texts: Record<string, string>): string[] {
  return Object.entries(texts).flatMap(([where, text]) =>
    Object.entries(SECRETS)
      .filter(([, secret]) => text.includes(secret))
      .map(([name]) => `${where}: ${name}`),
  );
}

describe.each([
  ['without a secret key', {}],
  ['with a secret key', { secretKey: 'agent-config-credentials' }],
])('credentials in an agent config, server %s', (_label, config) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config });
  });
  afterAll(async () => {
    await server.stop();
    await removeDir(server.dataDir);
  });

  it('are shown by no response and written in clear text to no file', async () => {
    const created = await server.call('POST', '/api/conversations', {
      agent: agentWithCredentials(server.llm.baseURL),
    });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    const shown = await server.call('GET', `/api/conversations/${id}`);
    const listed = await server.call('GET', '/api/conversations/search');
    const texts = {
      create: JSON.stringify(created.json),
      get: JSON.stringify(shown.json),
      search: JSON.stringify(listed.json),
      ...(await filesUnder(server.dataDir)),
    };
    expect(leaks(texts)).toEqual([]);
    // What is not a credential is kept as it was given.
    const llm = (shown.json as { agent: { llm: Record<string, unknown> } }).agent.llm;
    expect(llm.aws_access_key_id).toBe('AKIA-not-secret');
    expect(llm.extra_headers).toMatchObject({ 'X-Trace': 'kept' });
    expect(texts.get).toContain('team=kept');
    expect(texts.get).toContain('http://agent:');
  });
});

describe('an MCP server URL with credentials, stored with the server key', () => {
  it('reaches the MCP client whole again when the stored config is read back', () => {
    const cipher = createSecretCipher('agent-config-credentials');
    const request = { tools: [], ...agentWithCredentials('http://127.0.0.1:1/v1') };
    const stored = storableAgentConfig(request as never, cipher);
    expect(leaks({ stored: JSON.stringify(stored) })).toEqual([]);
    const { mcpConfig } = agentExtensions(stored, cipher);
    expect(mcpConfig?.userinfo).toMatchObject({ url: `http://agent:${SECRETS.userinfo}@127.0.0.1:1/mcp` });
    expect(mcpConfig?.query).toMatchObject({ url: `http://127.0.0.1:1/mcp?api_key=${SECRETS.query}&team=kept` });
  });
});
