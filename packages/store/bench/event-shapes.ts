import { randomUUID } from 'node:crypto';
import { type AnyEvent, parseEvent } from '@x/events';

/**
 * Events shaped like the scenario in /work/shared/reference/performance.md: a SystemPromptEvent of
 * ~20 KB (prompt plus tool definitions), a user MessageEvent, then alternating ActionEvents calling a
 * terminal-like tool (~210 B of arguments, ~1 KB as JSON) and ObservationEvents carrying 2,048
 * characters of command output (~3 KB as JSON).
 */

const timestamp = '2026-11-21T10:00:00.000000';
const filler = (length: number, seed: number): string => {
  const words = [
    'alpha',
    'build',
    'cache',
    'delta',
    'event',
    'file',
    'graph',
    'hash',
    'index',
    'json',
    'kernel',
    'log',
  ];
  let text = '';
  for (let i = 0; text.length < length; i++)
    text += `${words[(i * 7 + seed) % words.length]}${i % 11 === 10 ? '\n' : ' '}`;
  return text.slice(0, length);
};

function systemPrompt(): AnyEvent {
  const tools = Array.from({ length: 8 }, (_, i) => ({
    description: filler(1_900, i),
    action_type: `Tool${i}Action`,
    observation_type: `Tool${i}Observation`,
    annotations: {
      title: `tool_${i}`,
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    kind: `Tool${i}`,
    title: `tool_${i}`,
  }));
  return parseEvent({
    id: randomUUID(),
    timestamp,
    source: 'agent',
    system_prompt: { cache_prompt: false, type: 'text', text: filler(4_000, 99) },
    tools,
    kind: 'SystemPromptEvent',
  });
}

function userMessage(): AnyEvent {
  return parseEvent({
    id: randomUUID(),
    timestamp,
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text: 'Fix the failing build and run the tests.' }] },
    kind: 'MessageEvent',
  });
}

function action(step: number): { event: AnyEvent; callId: string } {
  const callId = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
  const command = `cd /workspace/project && grep -rn "TODO" src/ | head -n 40 && ls -la build/ && cat package.json | head -n 30 # step ${step}`;
  const argumentsJson = JSON.stringify({
    command,
    is_input: false,
    timeout: 120,
    security_risk: 'LOW',
    summary: 'inspect',
  });
  const event = parseEvent({
    id: randomUUID(),
    timestamp,
    source: 'agent',
    thought: [{ type: 'text', text: 'Let me look at the build output and the TODOs before changing anything.' }],
    action: { command, is_input: false, timeout: 120, kind: 'TerminalAction' },
    tool_name: 'terminal',
    tool_call_id: callId,
    tool_call: { id: callId, name: 'terminal', arguments: argumentsJson, origin: 'completion' },
    llm_response_id: `chatcmpl-${randomUUID()}`,
    security_risk: 'LOW',
    summary: 'inspect the build',
    kind: 'ActionEvent',
  });
  return { event, callId };
}

function observation(step: number, callId: string, actionId: string): AnyEvent {
  return parseEvent({
    id: randomUUID(),
    timestamp,
    source: 'environment',
    tool_name: 'terminal',
    tool_call_id: callId,
    observation: {
      content: [{ type: 'text', text: filler(2_048, step) }],
      is_error: false,
      command: 'grep -rn TODO src/',
      exit_code: 0,
      timeout: false,
      metadata: {
        exit_code: 0,
        pid: 4242,
        username: 'openhands',
        hostname: 'sandbox-7f3a',
        working_dir: '/workspace/project',
        py_interpreter_path: '/usr/bin/python3',
        prefix: '',
        suffix: `\n[The command completed with exit code 0.] ${filler(300, step + 1)}`,
      },
      kind: 'TerminalObservation',
    },
    action_id: actionId,
    kind: 'ObservationEvent',
  });
}

/** `count` events of the scenario, in log order, with fresh ids. */
export function* scenarioEvents(count: number): Generator<AnyEvent> {
  if (count > 0) yield systemPrompt();
  if (count > 1) yield userMessage();
  for (let produced = 2, step = 0; produced < count; step++) {
    const { event, callId } = action(step);
    yield event;
    produced++;
    if (produced < count) {
      yield observation(step, callId, event.id);
      produced++;
    }
  }
}

/**
 * The events of `steps` steps as the agent commits them, three a step in two commits: [first, second], [third]
 * (the stats update with the action, then the observation). `skip` leading scenario events are left out.
 */
export function stepCommits(steps: number, skip = 0): AnyEvent[][] {
  const events = [...scenarioEvents(steps * 3 + skip)].slice(skip);
  const commits: AnyEvent[][] = [];
  for (let step = 0; step < steps; step++) {
    commits.push(events.slice(step * 3, step * 3 + 2), events.slice(step * 3 + 2, step * 3 + 3));
  }
  return commits;
}
