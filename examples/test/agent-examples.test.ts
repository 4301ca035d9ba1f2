// Each example runs as its own process against a local server speaking the model vendor's wire protocol,
// configured the way a user configures a real provider: OPENAI_BASE_URL / ANTHROPIC_BASE_URL and a key.
import {
  type ScriptedReply,
  type ScriptedReplyFunction,
  startAnthropicServer,
  startScriptedLLMServer,
} from '@x/agent/testing';
import { describe, expect, it } from 'vitest';
import { describeRun, runExample, toolResults } from './support/run-example.js';

const finish = (message: string): ScriptedReply => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

/** Runs an example against a scripted OpenAI-compatible server; the server's requests are returned too. */
async function runWithOpenAI(name: string, script: ScriptedReply[] | ScriptedReplyFunction) {
  const server = await startScriptedLLMServer(script);
  try {
    const run = await runExample(name, { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.baseURL });
    return { run, requests: server.requests };
  } finally {
    await server.close();
  }
}

describe('examples, each run as a process', () => {
  it('approvals: a person denies with a reason the model then sees; the decision is recorded', async () => {
    const { run, requests } = await runWithOpenAI('approvals', [
      { toolCalls: [{ name: 'send_email', arguments: { to: 'bob@elsewhere.org', body: 'green' } }] },
      { content: 'Understood, I did not send it.' },
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.lines).toContain('status: waiting_for_confirmation');
    expect(run.lines).toContain('decision: deny by example-user');
    expect(run.lines).toContain('recorded: true');
    expect(run.lines).toContain('status: finished');
    expect(toolResults(requests[1])).toContain('Only internal mail today.');
  });

  it('custom-tool: the model sees the zod schema as JSON Schema and the tool runs', async () => {
    const { run, requests } = await runWithOpenAI('custom-tool', [
      { toolCalls: [{ name: 'word_count', arguments: { text: 'the quick brown fox' } }] },
      finish('There are 4 words.'),
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.lines).toContain('observation: 4 words');
    expect(run.lines).toContain('status: finished');
    const tools = requests[0]?.tools as { function: { name: string; parameters: { properties: object } } }[];
    const wordCount = tools.find((tool) => tool.function.name === 'word_count');
    expect(wordCount?.function.parameters.properties).toHaveProperty('text', {
      type: 'string',
      description: 'The text to count',
    });
    expect(toolResults(requests[1])).toContain('4 words');
  });

  it('anthropic-thinking: thinking blocks are shown and sent back, signed, on the next turn', async () => {
    const server = await startAnthropicServer([
      {
        thinking: 'The user wants a capital; the tool knows it.',
        toolCalls: [{ name: 'lookup_capital', arguments: { country: 'France' } }],
      },
      { thinking: 'The tool said Paris.', text: 'The capital of France is Paris.' },
    ]);
    try {
      const run = await runExample('anthropic-thinking', {
        ANTHROPIC_API_KEY: 'sk-ant-local',
        ANTHROPIC_BASE_URL: server.baseURL,
      });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.lines).toContain('thinking: The user wants a capital; the tool knows it.');
      expect(run.lines).toContain('thinking: The tool said Paris.');
      expect(run.lines).toContain('answer: The capital of France is Paris.');
      expect(run.stdout).toContain('status: finished');
      expect(server.requests).toHaveLength(2);
      // The server checks that the signed thinking block of turn 1 came back unchanged in turn 2.
      expect(server.requests.map((request) => request.violations)).toEqual([[], []]);
      expect(JSON.stringify(server.requests[1]?.body)).toContain('The user wants a capital; the tool knows it.');
      expect(server.requests[0]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    } finally {
      await server.close();
    }
  });

  it('mcp-stdio: the MCP server started over stdio gives the model its tool, and the call reaches it', async () => {
    const { run, requests } = await runWithOpenAI('mcp-stdio', [
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      finish('2 + 3 = 5'),
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).not.toContain('error:');
    const tools = requests[0]?.tools as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).toContain('add');
    expect(toolResults(requests[1])).toContain('5');
    expect(run.lines).toContain('status: finished');
  });

  it('mcp-sse: the MCP server reached over HTTP+SSE gives the model its tool, and the call reaches it', async () => {
    const { run, requests } = await runWithOpenAI('mcp-sse', [
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      finish('2 + 3 = 5'),
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).not.toContain('error:');
    const tools = requests[0]?.tools as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).toContain('add');
    expect(run.lines).toContain("observation: [Tool 'add' executed.] 5");
    expect(run.lines).toContain('status: finished');
  });

  it('workspace-tools: invoke_skill loads a user skill, glob finds, apply_patch edits, grep checks', async () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/app.py',
      '@@ def greet():',
      '-    print("hi")',
      '+    print("hello")',
      '*** End Patch',
    ].join('\n');
    const { run, requests } = await runWithOpenAI('workspace-tools', [
      { toolCalls: [{ name: 'invoke_skill', arguments: { name: 'greetings' } }] },
      { toolCalls: [{ name: 'glob', arguments: { pattern: '**/*.py' } }] },
      { toolCalls: [{ name: 'apply_patch', arguments: { patch } }] },
      { toolCalls: [{ name: 'grep', arguments: { pattern: 'print\\("hello"\\)', include: '*.py' } }] },
      finish('Done: the greeting says hello.'),
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).not.toContain('error:');
    const tools = ((requests[0]?.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(tools).toEqual(expect.arrayContaining(['apply_patch', 'glob', 'grep', 'invoke_skill']));
    expect(JSON.stringify(requests[0]?.messages)).toContain('<name>greetings</name>');
    expect(run.lines).toContain('observation (InvokeSkillObservation): Greetings say "hello", never "hi".');
    expect(
      run.lines.some((line) =>
        line.startsWith("observation (GlobObservation): Found 1 file(s) matching pattern '**/*.py' in '"),
      ),
    ).toBe(true);
    expect(run.lines).toContain('observation (ApplyPatchObservation): Done!');
    expect(run.lines).toContain('src/app.py now: "def greet():\\n    print(\\"hello\\")\\n"');
    expect(run.lines.some((line) => line.startsWith('observation (GrepObservation): Found 1 file(s)'))).toBe(true);
    expect(run.lines).toContain('status: finished');
  });

  it('blocking-hook: the PreToolUse hook blocks rm -rf and the directory survives', async () => {
    const { run, requests } = await runWithOpenAI('blocking-hook', [
      { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] },
      finish('The hook refused to delete build.'),
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.lines).toContain('hook: PreToolUse blocked');
    expect(run.stdout).toMatch(/rejected by hook .*rm -rf is not allowed here/);
    expect(run.lines).toContain('build directory still there: true');
    expect(toolResults(requests[1])).toContain('rm -rf is not allowed here');
  });

  it('skills: AGENTS.md goes with the system prompt, the triggered skill with the user message', async () => {
    const { run, requests } = await runWithOpenAI('skills', [{ content: 'Use the blue pipeline, not on a Friday.' }]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).not.toContain('error:');
    expect(run.lines).toContain("activated skills: [ 'deploy' ]");
    const sent = JSON.stringify(requests[0]?.messages);
    expect(sent).toContain('This repository is a ticket tracker written in Go.');
    expect(sent).toContain('Deploy with the blue pipeline; never on Fridays.');
    // The `tests` skill was not triggered: its text is not sent.
    expect(sent).not.toContain('go test ./...');
    expect(run.lines).toContain('status: finished');
  });

  it('handoff: triage transfers control to billing, whose prompt the next request carries; a resume keeps it', async () => {
    const { run, requests } = await runWithOpenAI('handoff', (body) => {
      const system = JSON.stringify((body.messages as { role: string; content: unknown }[])[0]?.content ?? '');
      if (system.includes('You are the triage agent.')) {
        return {
          toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'billing', reason: 'an invoice' } }],
        };
      }
      return finish('The second charge was a pre-authorisation; it is released in 3 days.');
    });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.lines).toContain('control passed: {"name":"billing","reason":"an invoice"}');
    expect(run.lines).toContain('status: finished');
    expect(run.lines).toContain('agent in control: billing');
    expect(run.lines).toContain('after resume: billing');
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]?.messages)).toContain('You are the billing agent.');
  });

  it('sub-agents: the parent spawns two children, delegates, and gets both answers', async () => {
    // One server answers the parent and both children (they run on the parent's model, in parallel), so each
    // reply is chosen from the request: a child by its task, the parent by how far it has got.
    const { run, requests } = await runWithOpenAI('sub-agents', (body) => {
      const messages = body.messages as { role: string; content: unknown }[];
      const last = messages.at(-1);
      const lastText = JSON.stringify(last?.content ?? '');
      if (last?.role === 'user' && lastText.includes('Compute 6*7.')) return finish('42');
      if (last?.role === 'user' && lastText.includes('Name the capital of Peru.')) return finish('Lima');
      const answered = messages.filter((message) => message.role === 'tool').length;
      if (answered === 0) {
        return { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['math', 'trivia'] } }] };
      }
      if (answered === 1) {
        const tasks = { math: 'Compute 6*7.', trivia: 'Name the capital of Peru.' };
        return { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks } }] };
      }
      return finish('math says 42, trivia says Lima');
    });
    expect(run.code, describeRun(run)).toBe(0);
    const observations = run.lines.filter((line) => line.startsWith('delegate observation:'));
    expect(observations).toHaveLength(2);
    expect(observations[1]).toContain('Completed delegation of 2 tasks');
    expect(run.stdout).toContain('Agent math: 42');
    expect(run.stdout).toContain('Agent trivia: Lima');
    expect(run.lines).toContain('status: finished');
    expect(run.stdout).toMatch(/^children: 2 [0-9a-f-]{36} [0-9a-f-]{36}$/m);
    expect(requests).toHaveLength(5); // parent: spawn, delegate, finish; one per child
  });

  it('eval-suite: a task run 3 times, scored (the judge on the same model), with pass@k and an HTML report', async () => {
    let agentCalls = 0;
    const { run } = await runWithOpenAI('eval-suite', (body) => {
      const messages = body.messages as { content: unknown }[];
      if (JSON.stringify(messages[0]?.content).includes('You grade the work of an AI agent')) {
        return { content: '{"score": 0.8, "reason": "notes.txt has alpha."}' };
      }
      const turn = agentCalls % 2;
      const attempt = Math.floor(agentCalls / 2) + 1;
      agentCalls += 1;
      if (turn === 0) {
        // The third attempt writes somewhere it should not.
        const path = attempt === 3 ? 'elsewhere.txt' : 'notes.txt';
        return { toolCalls: [{ name: 'file_editor', arguments: { command: 'create', path, file_text: 'alpha\n' } }] };
      }
      return finish('Done.');
    });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.lines).toContain('write-notes: 2/3 passed, pass@3 1.00, pass^3 0.00');
    expect(run.stdout).toContain('run 3: failed (files-within: written outside notes.txt: elsewhere.txt)');
    expect(run.stdout).toMatch(/^judge: 3 calls, \$\d+\.\d{6}$/m);
    expect(run.stdout).toMatch(/^report: .*eval-report\.html$/m);
  });

  it('budget: the run stops before the call that would pass the budget, and continues once it is raised', async () => {
    // gpt-4o-mini ($0.15 / $0.60 per million tokens): each reply costs $0.00045; the next call is estimated at
    // the last turn's 1500 tokens as input, $0.000225. A $0.0006 budget allows one call.
    const usage = { prompt_tokens: 1000, completion_tokens: 500 };
    const server = await startScriptedLLMServer([
      { toolCalls: [{ name: 'think', arguments: { thought: 'first' } }], usage },
      { toolCalls: [{ name: 'think', arguments: { thought: 'second' } }], usage },
      { ...finish('7 is prime.'), usage },
    ]);
    try {
      const run = await runExample('budget', {
        OPENAI_API_KEY: 'sk-local',
        OPENAI_BASE_URL: server.baseURL,
        BUDGET_USD: '0.0006',
      });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.lines).toContain('status: error');
      expect(run.stdout).toContain('stopped: Agent reached maximum budget limit ($0.0006)');
      expect(run.lines).toContain('spent: $0.000450 of $0.0006');
      expect(run.lines).toContain('after raising: finished');
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('time-travel: a fork at a tool result gets the files of that moment, runs on another model, compares', async () => {
    const { run, requests } = await runWithOpenAI('time-travel', [
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo draft plan > notes.txt' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Planned.' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo better plan > notes.txt' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Replanned.' } }] },
      { content: 'Hello.' },
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.lines).toContain('fork starts with: draft plan');
    expect(run.lines).toContain('original: finish finished');
    expect(run.lines).toContain('fork: terminal,finish finished');
    expect(run.lines).toContain('files that differ: notes.txt');
    expect(run.lines).toContain('edited task is a new event: true same parent: true');
    expect(run.lines).toContain('status after the edit: finished');
    expect(requests[2]?.model).toBe('gpt-4o-mini');
    expect(JSON.stringify(requests[4]?.messages)).toContain('Just say hello.');
  });

  it('persistence: a closed conversation is resumed from its store and the model sees its history', async () => {
    const { run, requests } = await runWithOpenAI('persistence', [
      { content: 'I will remember 7.' },
      { content: 'You asked me to remember 7.' },
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toMatch(/^persisted at: .*x-persistence-example-.*\/[0-9a-f]{32}$/m);
    expect(run.stdout).toMatch(/^events after resume: \d+ status: finished$/m);
    expect(run.lines).toContain('answer: You asked me to remember 7.');
    // The resumed conversation sent the first turn again: it was read back from the files.
    expect(JSON.stringify(requests[1]?.messages)).toContain('I will remember 7.');
  });
});
