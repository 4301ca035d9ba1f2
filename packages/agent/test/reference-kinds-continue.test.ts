import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FieldSets, fieldSetProblems } from '@x/events/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

/**
 * A conversation the reference wrote with kinds its three fixtures do not have (thinking and redacted thinking
 * blocks, an image, extended content, a parallel batch of terminal and browser calls, task_tracker, a hook-blocked
 * file_editor call, an unknown tool, a sub-agent task, hook and token events, a critic result), every event as its
 * writer emits it. x resumes it, sends what the reference would send for that history, and appends events the
 * reference's models accept, leaving the reference's files as they were.
 */
const sets: FieldSets = JSON.parse(
  await readFile(new URL('../../events/test/__fixtures__/reference-field-sets.json', import.meta.url), 'utf8'),
);
const id = '6f1d2a30-5b7c-4d8e-9f01-23456789abcd';
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const t = (text: string) => ({ cache_prompt: false, type: 'text', text });
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const stamp = (n: number) => `2026-08-22T16:34:${String(10 + n).padStart(2, '0')}.123456`;
const call = (n: number, name: string, args: string) => ({
  id: `call_${n}`,
  name,
  arguments: args,
  origin: 'completion',
});

function action(n: number, fields: Record<string, unknown>) {
  return { id: uuid(n), timestamp: stamp(n), source: 'agent', thinking_blocks: [], ...fields, kind: 'ActionEvent' };
}
function observation(n: number, actionNumber: number, toolName: string, observationJson: Record<string, unknown>) {
  return {
    id: uuid(n),
    timestamp: stamp(n),
    source: 'environment',
    tool_name: toolName,
    tool_call_id: `call_${actionNumber}`,
    observation: observationJson,
    action_id: uuid(actionNumber),
    extended_content: [],
    kind: 'ObservationEvent',
  };
}

const terminalCall = call(2, 'terminal', '{"command": "ls", "security_risk": "LOW", "summary": "list files"}');
const browserCall = call(3, 'browser_navigate', '{"url": "https://example.com", "summary": "open page"}');
const trackerCall = call(
  8,
  'task_tracker',
  '{"command": "plan", "task_list": [{"title": "Fix", "notes": "", "status": "todo"}]}',
);
const editorCall = call(10, 'file_editor', '{"command": "view", "path": "/w/a.py"}');
const unknownCall = call(12, 'nonexistent', '{}');
const taskCall = call(14, 'task', '{"prompt": "Find the bug", "subagent_type": "code-explorer"}');
const thinking = [
  { type: 'thinking', thinking: 'Two calls at once.', signature: 'sig-1' },
  { type: 'redacted_thinking', data: 'opaque' },
];

const referenceEvents = [
  {
    id: uuid(0),
    timestamp: stamp(0),
    source: 'agent',
    system_prompt: t('You are OpenHands agent.'),
    tools: [],
    dynamic_context: t('<RUNTIME>date</RUNTIME>'),
    kind: 'SystemPromptEvent',
  },
  {
    id: uuid(1),
    timestamp: stamp(1),
    source: 'user',
    llm_message: {
      role: 'user',
      content: [
        t('Look at this'),
        { cache_prompt: false, type: 'image', image_urls: [`data:image/png;base64,${png}`] },
      ],
      thinking_blocks: [],
    },
    activated_skills: ['git'],
    extended_content: [t('<EXTRA_INFO>git skill</EXTRA_INFO>')],
    kind: 'MessageEvent',
  },
  action(2, {
    thought: [t('Let me check.')],
    reasoning_content: 'I should list files and open the page.',
    thinking_blocks: thinking,
    action: { command: 'ls', is_input: false, reset: false, kind: 'TerminalAction' },
    tool_name: 'terminal',
    tool_call_id: 'call_2',
    tool_call: terminalCall,
    llm_response_id: 'chatcmpl-1',
    security_risk: 'LOW',
    summary: 'list files',
  }),
  action(3, {
    thought: [],
    action: { url: 'https://example.com', new_tab: false, kind: 'BrowserNavigateAction' },
    tool_name: 'browser_navigate',
    tool_call_id: 'call_3',
    tool_call: browserCall,
    llm_response_id: 'chatcmpl-1',
    security_risk: 'UNKNOWN',
    summary: 'open page',
  }),
  observation(4, 2, 'terminal', {
    content: [t('a.py\nb.py')],
    is_error: false,
    command: 'ls',
    exit_code: 0,
    timeout: false,
    metadata: { exit_code: 0, pid: -1, username: 'dev', hostname: 'box', working_dir: '/w', prefix: '', suffix: '' },
    kind: 'TerminalObservation',
  }),
  observation(5, 3, 'browser_navigate', {
    content: [t('Navigated to https://example.com')],
    is_error: false,
    screenshot_data: png,
    kind: 'BrowserObservation',
  }),
  {
    id: uuid(6),
    timestamp: stamp(6),
    source: 'hook',
    hook_event_type: 'PostToolUse',
    hook_command: 'audit.sh',
    tool_name: 'terminal',
    success: true,
    blocked: false,
    exit_code: 0,
    stdout: 'ok',
    stderr: '',
    action_id: uuid(2),
    hook_input: { tool_name: 'terminal' },
    kind: 'HookExecutionEvent',
  },
  {
    id: uuid(7),
    timestamp: stamp(7),
    source: 'agent',
    prompt_token_ids: [1, 2],
    response_token_ids: [3],
    kind: 'TokenEvent',
  },
  action(8, {
    thought: [],
    action: { command: 'plan', task_list: [{ title: 'Fix', notes: '', status: 'todo' }], kind: 'TaskTrackerAction' },
    tool_name: 'task_tracker',
    tool_call_id: 'call_8',
    tool_call: trackerCall,
    llm_response_id: 'chatcmpl-2',
    security_risk: 'UNKNOWN',
    summary: 'task_tracker: {"command": "plan"}',
  }),
  observation(9, 8, 'task_tracker', {
    content: [t('Task list has been updated with 1 item(s).')],
    is_error: false,
    command: 'plan',
    task_list: [{ title: 'Fix', notes: '', status: 'todo' }],
    kind: 'TaskTrackerObservation',
  }),
  action(10, {
    thought: [t('View it.')],
    action: { command: 'view', path: '/w/a.py', kind: 'FileEditorAction' },
    tool_name: 'file_editor',
    tool_call_id: 'call_10',
    tool_call: editorCall,
    llm_response_id: 'chatcmpl-3',
    security_risk: 'UNKNOWN',
    summary: 'view a.py',
  }),
  {
    id: uuid(11),
    timestamp: stamp(11),
    source: 'environment',
    tool_name: 'file_editor',
    tool_call_id: 'call_10',
    rejection_reason: 'Blocked by policy',
    rejection_source: 'hook',
    action_id: uuid(10),
    kind: 'UserRejectObservation',
  },
  action(12, {
    thought: [],
    tool_name: 'nonexistent',
    tool_call_id: 'call_12',
    tool_call: unknownCall,
    llm_response_id: 'chatcmpl-4',
    security_risk: 'UNKNOWN',
    summary: 'nonexistent: {}',
  }),
  {
    id: uuid(13),
    timestamp: stamp(13),
    source: 'agent',
    tool_name: 'nonexistent',
    tool_call_id: 'call_12',
    error: "Tool 'nonexistent' not found. Available: ['terminal', 'finish']",
    classification: { kind: 'agent_action', retryable: true, user_action: 'retry' },
    kind: 'AgentErrorEvent',
  },
  action(14, {
    thought: [],
    action: {
      prompt: 'Find the bug',
      subagent_type: 'code-explorer',
      kind: 'TaskAction',
    },
    tool_name: 'task',
    tool_call_id: 'call_14',
    tool_call: taskCall,
    llm_response_id: 'chatcmpl-5',
    security_risk: 'UNKNOWN',
    summary: 'delegate',
  }),
  observation(15, 14, 'task', {
    content: [t('The bug is in b.py')],
    is_error: false,
    task_id: 'task-1',
    subagent: 'code-explorer',
    status: 'completed',
    kind: 'TaskObservation',
  }),
  {
    id: uuid(16),
    timestamp: stamp(16),
    source: 'agent',
    llm_message: { role: 'assistant', content: [t('The bug is in b.py.')], thinking_blocks: [] },
    llm_response_id: 'chatcmpl-6',
    activated_skills: [],
    extended_content: [],
    critic_result: { score: 0.8, message: 'plausible', metadata: { event_ids: [uuid(15)] } },
    kind: 'MessageEvent',
  },
  {
    id: uuid(17),
    timestamp: stamp(17),
    source: 'environment',
    key: 'execution_status',
    value: 'finished',
    kind: 'ConversationStateUpdateEvent',
  },
];

const text = (value: string) => ({ type: 'text', text: value });
const chatCall = (c: { id: string; name: string; arguments: string }) => ({
  id: c.id,
  type: 'function',
  function: { name: c.name, arguments: c.arguments },
});
const tool = (callId: string, name: string, content: unknown[]) => ({
  role: 'tool',
  content,
  tool_call_id: callId,
  name,
});

/** What the reference's `to_chat_dict` gives for this history (list form, vision on, no caching, no reasoning). */
const expectedHistory = [
  { role: 'system', content: [text('You are OpenHands agent.'), text('<RUNTIME>date</RUNTIME>')] },
  {
    role: 'user',
    content: [
      text('Look at this'),
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
      text('<EXTRA_INFO>git skill</EXTRA_INFO>'),
    ],
  },
  {
    role: 'assistant',
    content: [text('Let me check.')],
    thinking_blocks: thinking,
    tool_calls: [chatCall(terminalCall), chatCall(browserCall)],
  },
  tool('call_2', 'terminal', [
    text('a.py\nb.py\n[Current working directory: /w]\n[Command finished with exit code 0]'),
  ]),
  tool('call_3', 'browser_navigate', [
    text('Navigated to https://example.com'),
    { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
  ]),
  { role: 'assistant', tool_calls: [chatCall(trackerCall)] },
  tool('call_8', 'task_tracker', [text('Task list has been updated with 1 item(s).')]),
  { role: 'assistant', content: [text('View it.')], tool_calls: [chatCall(editorCall)] },
  tool('call_10', 'file_editor', [text('Action rejected: Blocked by policy')]),
  { role: 'assistant', tool_calls: [chatCall(unknownCall)] },
  tool('call_12', 'nonexistent', [text("Tool 'nonexistent' not found. Available: ['terminal', 'finish']")]),
  { role: 'assistant', tool_calls: [chatCall(taskCall)] },
  tool('call_14', 'task', [
    text('Task ID: task-1\nSubagent: code-explorer\nStatus: completed'),
    text('The bug is in b.py'),
  ]),
  { role: 'assistant', content: [text('The bug is in b.py.')] },
  { role: 'user', content: [text('Fix it')] },
];

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('continuing a reference conversation with kinds beyond the fixtures', () => {
  it('sends the history as the reference would and appends events the reference accepts', async () => {
    harness = await startHarness([{ content: 'Done.' }]);
    const h = harness;
    const dir = join(h.persistenceDir, id.replaceAll('-', ''));
    await mkdir(join(dir, 'events'), { recursive: true });
    const written = new Map<string, string>();
    for (const [index, event] of referenceEvents.entries()) {
      const name = `event-${String(index).padStart(5, '0')}-${event.id}.json`;
      const json = JSON.stringify(event);
      written.set(name, json);
      await writeFile(join(dir, 'events', name), json);
    }
    const fixtureState = JSON.parse(
      await readFile(
        new URL('../../events/test/__fixtures__/openhands/01_simple_message_reply/base_state.json', import.meta.url),
        'utf8',
      ),
    );
    await writeFile(
      join(dir, 'base_state.json'),
      JSON.stringify({
        ...fixtureState,
        id,
        workspace: { working_dir: h.workspace, kind: 'LocalWorkspace' },
        last_user_message_id: uuid(1),
        leaf_event_id: uuid(16),
      }),
    );

    const conversation = await Conversation.resume(id, {
      agent: h.agent(),
      workspace: h.workspace,
      persistenceDir: h.persistenceDir,
    });
    await conversation.sendMessage('Fix it');
    expect((await conversation.run()).status).toBe('finished');

    const messages = (h.server.requests[0]?.messages ?? []) as unknown[];
    expect(messages).toEqual(expectedHistory);

    const files = (await readdir(join(dir, 'events'))).filter((name) => name.endsWith('.json')).sort();
    for (const name of files) {
      const json = await readFile(join(dir, 'events', name), 'utf8');
      if (written.has(name)) expect(json).toBe(written.get(name));
      else expect(fieldSetProblems(sets, JSON.parse(json))).toEqual([]);
    }
    expect(files.length).toBeGreaterThan(written.size);
  });
});
