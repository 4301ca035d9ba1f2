import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
afterAll(() => home.remove());
const env = { X_HOME: home.path };
let location: string;

beforeAll(async () => {
  // The demo task runs on the offline model and uses the terminal (`cat hello.txt`) and the file editor.
  const demo = await runCli(['run', '--demo'], { env });
  expect(demo.code).toBe(0);
  const conversations = join(home.path, 'conversations');
  location = join(conversations, readdirSync(conversations)[0]!);
});

function eventFiles(): string[] {
  return readdirSync(join(location, 'events')).filter((name) => name.startsWith('event-'));
}

describe('x replay --check on a recording made with the terminal tool', () => {
  it('passes unchanged, also on a host whose python is elsewhere; fails with a diff once the system prompt changed', async () => {
    const terminal = eventFiles()
      .map((name) => JSON.parse(readFileSync(join(location, 'events', name), 'utf8')) as Record<string, unknown>)
      .find((event) => (event.observation as { kind?: string } | undefined)?.kind === 'TerminalObservation');
    expect(terminal).toBeDefined();

    const passed = await runCli(['replay', location, '--check'], { env });
    expect(passed.stderr).toBe('');
    expect(passed.stdout).toContain('replay check passed: 3 of 3 requests match the recording');
    expect(passed.code).toBe(0);

    // Another python first on PATH changes the terminal's "[Python interpreter: ...]" line: host, not agent.
    const bin = join(home.path, 'other-bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'python'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, 'python'), 0o755);
    const elsewhere = await runCli(['replay', location, '--check'], {
      env: { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    expect(elsewhere.stdout).toContain('replay check passed: 3 of 3 requests match the recording');
    expect(elsewhere.code).toBe(0);

    // As if the agent's system prompt had changed since the recording: edit the recorded one.
    const first = eventFiles().find((name) => name.startsWith('event-00000-'))!;
    const recorded = JSON.parse(readFileSync(join(location, 'events', first), 'utf8')) as {
      system_prompt: { text: string };
    };
    const firstLine = recorded.system_prompt.text.split('\n')[0]!;
    recorded.system_prompt.text = recorded.system_prompt.text.replace(firstLine, 'An older system prompt.');
    writeFileSync(join(location, 'events', first), JSON.stringify(recorded));
    const failed = await runCli(['replay', location, '--check'], { env });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('replay check failed after 0 of 3 matching requests');
    expect(failed.stdout).toMatch(/request 0 \(recorded response offline-1_\d+\) differs from the recording/);
    expect(failed.stdout).toContain('at messages[0].content[0].text');
    expect(failed.stdout).toContain('  - An older system prompt.');
    expect(failed.stdout).toContain(`  + ${firstLine}`);
  });
});

describe('x replay --check on a recording made with a summarizing condenser', () => {
  it('condenses where the recording did, answering with the recorded summaries, and passes', async () => {
    const agentModule = await import('@x/agent');
    const dataDir = tempDir();
    const workspace = tempDir();
    try {
      const steps = 9;
      const script = [
        ...Array.from({ length: steps }, (_, n) => ({
          toolCalls: [{ name: 'terminal', arguments: { command: `echo step-${n}` } }],
        })),
        { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
      ];
      const agent = agentModule.createAgent({
        llm: agentModule.createOfflineLLM({ script }),
        toolEnvironment: { inherit: [...agentModule.defaultInheritedVariables], set: {} },
        condenser: new agentModule.LLMSummarizingCondenser({
          llm: agentModule.createOfflineLLM({ script: (_request, turn) => ({ content: `Summary ${turn}: echoed.` }) }),
          maxSize: 8,
          keepFirst: 1,
        }),
      });
      const conversation = await agentModule.Conversation.create({
        agent,
        workspace: workspace.path,
        persistenceDir: dataDir.path,
        durability: 'none',
      });
      await conversation.sendMessage('Echo a few steps.');
      await conversation.run();
      const condensations = [];
      for await (const event of conversation.events()) if (event.kind === 'Condensation') condensations.push(event);
      const location = conversation.location;
      await conversation.close();
      expect(condensations.length).toBeGreaterThan(1);

      const passed = await runCli(['replay', location, '--check'], { env });
      expect(passed.stderr).toBe('');
      expect(passed.stdout).toContain(`replay check passed: ${steps + 1} of ${steps + 1} requests match`);
      expect(passed.code).toBe(0);
    } finally {
      workspace.remove();
      dataDir.remove();
    }
  });
});
