import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Conversation,
  createOpenAILLM,
  type EvalRun,
  type ExpectedToolCall,
  evalRunFromEvents,
  readRecordedConversation,
  trajectory,
} from '../src/index.js';
import { type ScriptedReply, startScriptedLLMServer } from '../src/testing/index.js';
import { evalAgent } from './support/eval-recordings.js';

let root: string;

/** A real conversation in `workspace` whose model makes the calls `script(workspace)` gives. */
async function recorded(script: (workspace: string) => ScriptedReply[]): Promise<EvalRun> {
  const workspace = await mkdtemp(join(root, 'ws-'));
  const server = await startScriptedLLMServer(script(workspace));
  try {
    const llm = createOpenAILLM({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 });
    const conversation = await Conversation.create({
      agent: evalAgent(llm),
      workspace,
      persistenceDir: join(root, 'conversations'),
    });
    try {
      await conversation.sendMessage('Write src/a.ts');
      await conversation.run().catch(() => undefined);
      const recording = await readRecordedConversation(conversation.location);
      return await evalRunFromEvents(recording.events, { workspace: recording.workspace });
    } finally {
      await conversation.close();
    }
  } finally {
    await server.close();
  }
}

const create = (path: string): ScriptedReply => ({
  toolCalls: [{ name: 'file_editor', arguments: { command: 'create', path, file_text: 'export {};\n' } }],
});
const finish: ScriptedReply = { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };

async function passes(run: EvalRun, expected: ExpectedToolCall[]): Promise<boolean> {
  return (await trajectory({ match: 'in-order', tools: expected }).score(run, {})).passed;
}

let absolute: EvalRun;
let relativeRun: EvalRun;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-paths-'));
  absolute = await recorded((workspace) => [create(join(workspace, 'src', 'a.ts')), finish]);
  relativeRun = await recorded(() => [create('./src/a.ts'), finish]);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('trajectory: file paths compared relative to the workspace', () => {
  it('matches a relative expectation to a model that wrote the absolute path inside the workspace', async () => {
    expect(absolute.workspace).toBeDefined();
    expect(absolute.toolCalls[0]?.arguments.path).toBe(join(absolute.workspace!, 'src', 'a.ts'));
    expect(await passes(absolute, [{ tool: 'file_editor', arguments: { command: 'create', path: 'src/a.ts' } }])).toBe(
      true,
    );
    expect(await passes(absolute, [{ tool: 'file_editor', arguments: { path: './src//a.ts' } }])).toBe(true);
    expect(await passes(absolute, [{ tool: 'file_editor', arguments: { path: 'src/b.ts' } }])).toBe(false);
  });

  it('matches an absolute expectation inside the workspace to a model that wrote a relative path', async () => {
    const inside = join(relativeRun.workspace!, 'src', 'a.ts');
    expect(await passes(relativeRun, [{ tool: 'file_editor', arguments: { path: inside } }])).toBe(true);
    expect(await passes(relativeRun, [{ tool: 'file_editor', arguments: { path: 'src/a.ts' } }])).toBe(true);
    // The same file name in another workspace is another file.
    const elsewhere = join(absolute.workspace!, 'src', 'a.ts');
    expect(await passes(relativeRun, [{ tool: 'file_editor', arguments: { path: elsewhere } }])).toBe(false);
  });

  it('leaves paths outside the workspace as written, and other tools and arguments alone', async () => {
    const run: EvalRun = {
      ...relativeRun,
      toolCalls: [
        { tool: 'file_editor', arguments: { command: 'view', path: '/etc/hosts' } },
        { tool: 'grep', arguments: { pattern: 'x', path: join(relativeRun.workspace!, 'src') } },
        { tool: 'glob', arguments: { pattern: '*.ts', path: `${relativeRun.workspace}/` } },
        { tool: 'terminal', arguments: { command: join(relativeRun.workspace!, 'run.sh') } },
      ],
    };
    const scored = (expected: ExpectedToolCall[]) => passes(run, expected);
    expect(await scored([{ tool: 'file_editor', arguments: { path: '/etc/hosts' } }])).toBe(true);
    // `/etc/hosts` is outside: it is not turned into `../../etc/hosts`.
    const climbing = join('..', '..', '..', '..', '..', '..', 'etc', 'hosts');
    expect(await scored([{ tool: 'file_editor', arguments: { path: climbing } }])).toBe(false);
    expect(await scored([{ tool: 'grep', arguments: { path: 'src' } }])).toBe(true);
    expect(await scored([{ tool: 'glob', arguments: { path: '.' } }])).toBe(true);
    expect(await scored([{ tool: 'glob', arguments: { pattern: '*.ts', path: './' } }])).toBe(true);
    // The terminal's command is not a path argument: it is compared as written.
    expect(await scored([{ tool: 'terminal', arguments: { command: 'run.sh' } }])).toBe(false);
    expect(await scored([{ tool: 'terminal', arguments: { command: join(run.workspace!, 'run.sh') } }])).toBe(true);
  });

  it('without a known workspace, compares absolute paths as written', async () => {
    const run: EvalRun = { ...absolute, workspace: undefined };
    expect(await passes(run, [{ tool: 'file_editor', arguments: { path: 'src/a.ts' } }])).toBe(false);
    const written = absolute.toolCalls[0]?.arguments.path as string;
    expect(await passes(run, [{ tool: 'file_editor', arguments: { path: written } }])).toBe(true);
  });
});
