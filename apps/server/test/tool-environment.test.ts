import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitForIdle,
} from './helpers.js';

/** Credentials a server process typically holds; the agent's shell must see none of them. */
const hostSecrets: Record<string, string> = {
  SESSION_API_KEY: 'session-api-key-hostsecret-1',
  X_SECRET_KEY: 'fernet-hostsecret-2',
  OPENAI_API_KEY: 'sk-openai-hostsecret-3',
  ANTHROPIC_API_KEY: 'sk-ant-hostsecret-4',
  AWS_ACCESS_KEY_ID: 'AKIAHOSTSECRET5',
  AWS_SECRET_ACCESS_KEY: 'aws-hostsecret-6',
  GITHUB_TOKEN: 'ghp-hostsecret-7',
  DATABASE_PASSWORD: 'db-hostsecret-8',
};
const saved: Record<string, string | undefined> = {};
let server: TestServer;

beforeAll(async () => {
  for (const [name, value] of Object.entries(hostSecrets)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  server = await startTestServer({
    config: {
      apiKeys: [hostSecrets.SESSION_API_KEY!],
      secretKey: hostSecrets.X_SECRET_KEY!,
      openaiApiKey: hostSecrets.OPENAI_API_KEY!,
    },
  });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** The conversation's event files, one text per file, in order. */
async function eventFiles(id: string): Promise<string[]> {
  const dir = join(server.dataDir, 'conversations', id.replace(/-/g, ''), 'events');
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  return Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')));
}

describe('the terminal of a server conversation', () => {
  it('runs `env` without any of the server process secrets, in the observation or the event files', async () => {
    const auth = { 'x-session-api-key': hostSecrets.SESSION_API_KEY! };
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'env; echo "[$OPENAI_API_KEY][$X_SECRET_KEY]"' } }] },
      finishReply('Listed the environment.'),
    );
    const created = await server.call(
      'POST',
      '/api/conversations',
      {
        agent: { llm: { model: 'gpt-test', base_url: server.llm.baseURL }, tools: [{ name: 'TerminalTool' }] },
        initial_message: { content: [{ type: 'text', text: 'Show the environment' }] },
      },
      auth,
    );
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    expect(
      (await waitForIdle({ ...server, call: (m, p, b, h) => server.call(m, p, b, { ...auth, ...h }) }, id))
        .execution_status,
    ).toBe('finished');

    const files = await eventFiles(id);
    const events = files.join('\n');
    const observation = files.find((file) => JSON.parse(file).observation?.kind === 'TerminalObservation');
    expect(observation).toBeDefined();
    expect(observation).toContain('PATH=');
    expect(observation).toContain('[][]');
    for (const [name, value] of Object.entries(hostSecrets)) {
      expect(events, `${name} leaked into the event files`).not.toContain(value);
    }
    // What the model was sent (the LLM request carrying the observation) holds none of them either.
    const requests = JSON.stringify(server.llm.requests);
    for (const [name, value] of Object.entries(hostSecrets)) {
      if (name === 'OPENAI_API_KEY') continue; // the server's own LLM key authenticates its requests
      expect(requests, `${name} reached the model`).not.toContain(value);
    }
  });

  it('keeps one shell session per conversation: a cd carries over to the next call', async () => {
    const auth = { 'x-session-api-key': hostSecrets.SESSION_API_KEY! };
    const authed: TestServer = { ...server, call: (m, p, b, h) => server.call(m, p, b, { ...auth, ...h }) };
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'mkdir -p deeper && cd deeper' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'pwd' } }] },
      finishReply('Done.'),
    );
    const id = await createConversation(authed, {
      initial_message: { content: [{ type: 'text', text: 'Go deeper' }] },
    });
    expect((await waitForIdle(authed, id)).execution_status).toBe('finished');
    const observations = (await eventFiles(id))
      .filter((file) => JSON.parse(file).observation?.kind === 'TerminalObservation')
      .map(
        (file) =>
          JSON.parse(file) as { observation: { content: { text: string }[]; metadata: { working_dir: string } } },
      );
    expect(observations).toHaveLength(2);
    expect(observations[1]!.observation.content[0]!.text).toMatch(/\/deeper$/);
    expect(observations[1]!.observation.metadata.working_dir).toMatch(/\/deeper$/);
  });
});
