import { realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { isPathInside } from '../paths/index.js';
import type { Skill } from '../skills/skill.js';
import { defineTool, type Tool, type ToolResult } from './tool.js';

export const invokeSkillParameters = z.object({
  name: z.string().describe('Name of the loaded skill to invoke.'),
});

export type InvokeSkillAction = z.output<typeof invokeSkillParameters>;

/** The reference's description of invoke_skill. */
export const INVOKE_SKILL_TOOL_DESCRIPTION = `Invoke a skill by name.

This is the only supported way to invoke a skill listed in
\`<available_skills>\`. Call it with the \`<name>\` shown in that block; the
skill's full content is rendered (including any dynamic context) and
returned as the tool result.
`;

/** The reference's built-in tool class, named in the agent's `include_default_tools` when it has the tool. */
export const INVOKE_SKILL_TOOL_KIND = 'InvokeSkillTool';

/** Where a skill can be looked up: the agent's skill set (given, workspace and user skills), read at each call. */
export type SkillSource = () => readonly Skill[];

/**
 * The reference's footer naming the skill's directory (its `scripts/`, `references/` … are relative to it): relative
 * to the workspace when inside it, so a home directory path is not shown when it need not be.
 */
async function locationFooter(source: string | null, workspace: string): Promise<string> {
  if (source === null) return '';
  let skillFile: string;
  try {
    skillFile = await realpath(source);
    if (!(await stat(skillFile)).isFile()) return '';
  } catch {
    return '';
  }
  const directory = dirname(skillFile);
  let shown = directory;
  const realWorkspace = await realpath(workspace).catch(() => undefined);
  if (realWorkspace !== undefined && isPathInside(realWorkspace, directory)) {
    shown = directory === realWorkspace ? '.' : directory.slice(realWorkspace.length + 1);
  }
  return `\n\n---\nThis skill is located at \`${shown}\`. Any files it references (e.g. under \`scripts/\`, \`references/\`, \`assets/\`) are relative to that directory.`;
}

/**
 * `invoke_skill` (the reference's InvokeSkillTool): returns the full content of a loaded skill by name, for the
 * skills the system prompt lists in `<available_skills>`. The agent adds it by itself when an AgentSkills-format
 * skill (`<name>/SKILL.md`) is loaded. Unlike the reference, inline `` !`command` `` tokens in a skill are not run:
 * the content is returned as written.
 */
export function createInvokeSkillTool(skills: SkillSource): Tool<InvokeSkillAction> {
  return defineTool({
    name: 'invoke_skill',
    toolKind: INVOKE_SKILL_TOOL_KIND,
    description: INVOKE_SKILL_TOOL_DESCRIPTION,
    parameters: invokeSkillParameters,
    annotations: {
      title: 'invoke_skill',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async execute(action, context): Promise<ToolResult> {
      const name = action.name.trim();
      const loaded = skills();
      const match = loaded.find((skill) => skill.name === name);
      const failure = (text: string): ToolResult => ({ content: text, is_error: true, skill_name: name });
      if (match === undefined) {
        const available =
          loaded
            .filter((skill) => skill.disable_model_invocation !== true)
            .map((skill) => skill.name)
            .sort()
            .join(', ') || '<none>';
        return failure(`Unknown skill '${name}'. Available skills: ${available}.`);
      }
      if (match.disable_model_invocation === true) {
        return failure(`Skill '${name}' cannot be invoked directly. It can only be activated by trigger matching.`);
      }
      const footer = await locationFooter(match.source, context.workspace);
      return { content: `${match.content}${footer}`, skill_name: name };
    },
  });
}
