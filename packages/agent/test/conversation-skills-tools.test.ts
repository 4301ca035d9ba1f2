import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { parseEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool, defaultTools, globTool, grepTool } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness | undefined;
let xHome: string;
let savedXHome: string | undefined;

beforeEach(async () => {
  // User-level skills are read from $X_HOME/skills: a temporary one, never the real ~/.x.
  xHome = await mkdtemp(join(tmpdir(), 'x-home-'));
  savedXHome = process.env.X_HOME;
  process.env.X_HOME = xHome;
});
afterEach(async () => {
  if (savedXHome === undefined) delete process.env.X_HOME;
  else process.env.X_HOME = savedXHome;
  await harness?.close();
  harness = undefined;
  await rm(xHome, { recursive: true, force: true, maxRetries: 5 });
});

async function write(root: string, path: string, text: string): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), text);
}

function ofKind<K extends AnyEvent['kind']>(events: readonly AnyEvent[], kind: K): Extract<AnyEvent, { kind: K }>[] {
  return events.filter((event): event is Extract<AnyEvent, { kind: K }> => event.kind === kind);
}

const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

describe('a conversation with user-level skills, invoke_skill, apply_patch, glob and grep', () => {
  it('lists the skills, loads one on demand, and records every tool in the reference shapes', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'invoke_skill', arguments: { name: 'release-notes' } }] },
      { toolCalls: [{ name: 'glob', arguments: { pattern: '**/*.md', summary: 'find notes' } }] },
      {
        toolCalls: [
          {
            name: 'apply_patch',
            arguments: { patch: '*** Begin Patch\n*** Add File: NOTES.md\n+# v1.0\n+- first release\n*** End Patch' },
          },
        ],
      },
      { toolCalls: [{ name: 'grep', arguments: { pattern: 'first release' } }] },
      finish('notes written'),
    ]);
    const workspace = harness.workspace;
    await write(
      xHome,
      'skills/release-notes/SKILL.md',
      '---\ndescription: Writes release notes\n---\nList every change.',
    );
    await write(xHome, 'skills/shared.md', 'from the user');
    await write(workspace, '.openhands/skills/shared.md', 'from the workspace');
    const agent = harness.agent({
      tools: [...defaultTools(), applyPatchTool, globTool, grepTool],
      agentContext: { loadProjectSkills: true, loadUserSkills: true },
    });
    const { conversation, events } = await harness.conversation({ agent });
    await conversation.sendMessage('Write the release notes');
    expect((await conversation.run()).status).toBe('finished');

    const [system] = ofKind(events, 'SystemPromptEvent');
    expect(system?.tools.map((tool) => tool.title)).toEqual(
      expect.arrayContaining(['apply_patch', 'glob', 'grep', 'invoke_skill']),
    );
    const context = system?.dynamic_context?.text ?? '';
    expect(context).toContain(
      '<available_skills>\n  <skill>\n    <name>release-notes</name>\n    <description>Writes release notes</description>\n  </skill>\n</available_skills>',
    );
    // The workspace's skill of a name wins over the user's; an AgentSkills skill is not in the repository context.
    expect(context).toContain('[BEGIN context from [shared]]\nfrom the workspace');
    expect(context).not.toContain('from the user');
    expect(context).not.toContain('List every change.');

    const actions = ofKind(events, 'ActionEvent').map((event) => event.action);
    expect(actions.map((action) => action?.kind)).toEqual([
      'InvokeSkillAction',
      'GlobAction',
      'ApplyPatchAction',
      'GrepAction',
      'FinishAction',
    ]);
    const observations = ofKind(events, 'ObservationEvent').map((event) => event.observation);
    expect(observations[0]).toMatchObject({
      is_error: false,
      skill_name: 'release-notes',
      kind: 'InvokeSkillObservation',
    });
    expect(observations[0]?.content[0]).toMatchObject({
      text: `List every change.\n\n---\nThis skill is located at \`${join(xHome, 'skills', 'release-notes')}\`. Any files it references (e.g. under \`scripts/\`, \`references/\`, \`assets/\`) are relative to that directory.`,
    });
    // Hidden directories (.openhands) are not searched, as ripgrep skips them.
    expect(observations[1]).toMatchObject({ files: [], pattern: '**/*.md', kind: 'GlobObservation' });
    expect(observations[2]).toMatchObject({ is_error: false, message: 'Done!', kind: 'ApplyPatchObservation' });
    expect(await readFile(join(workspace, 'NOTES.md'), 'utf8')).toBe('# v1.0\n- first release');
    expect(observations[3]).toMatchObject({ matches: [join(workspace, 'NOTES.md')], kind: 'GrepObservation' });

    // The skill's content reached the model as the tool result.
    const second = harness.server.requests[1] as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(second.messages.at(-1))).toContain('List every change.');

    for await (const event of conversation.events()) {
      expect(() => parseEvent(JSON.parse(JSON.stringify(event)))).not.toThrow();
    }
    // The skill invoked is on the state, as the reference's `invoked_skills` (and in base_state.json below).
    expect(conversation.state.invoked_skills).toEqual(['release-notes']);
    await conversation.close();
    const state = JSON.parse(
      await readFile(join(harness.persistenceDir, conversation.directory, 'base_state.json'), 'utf8'),
    ) as {
      agent: { tools: { name: string }[]; include_default_tools: string[]; agent_context: Record<string, unknown> };
      invoked_skills: string[];
    };
    expect(state.invoked_skills).toEqual(['release-notes']);
    expect(state.agent.tools.map((tool) => tool.name)).toEqual([
      'terminal',
      'file_editor',
      'task_tracker',
      'apply_patch',
      'glob',
      'grep',
    ]);
    expect(state.agent.include_default_tools).toEqual(['FinishTool', 'ThinkTool', 'InvokeSkillTool']);
    expect(state.agent.agent_context).toMatchObject({ load_project_skills: true, load_user_skills: true });
  });

  it('offers no invoke_skill and no skill list without an AgentSkills-format skill', async () => {
    harness = await startHarness([finish('done')]);
    await write(xHome, 'skills/style.md', 'Prefer small functions.');
    const agent = harness.agent({ agentContext: { loadUserSkills: true } });
    const { conversation, events } = await harness.conversation({ agent });
    await conversation.sendMessage('hi');
    await conversation.run();
    const [system] = ofKind(events, 'SystemPromptEvent');
    expect(system?.tools.some((tool) => tool.title === 'invoke_skill')).toBe(false);
    expect(system?.dynamic_context?.text).toContain('[BEGIN context from [style]]\nPrefer small functions.');
    expect(system?.dynamic_context?.text).not.toContain('<SKILLS>');
    await conversation.close();
  });
});
