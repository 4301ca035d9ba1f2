// The reference's other workspace tools: apply_patch (OpenAI's `*** Begin Patch` format), glob and grep, all
// confined to the workspace, and invoke_skill, which the agent adds by itself for an AgentSkills-format skill
// (`<name>/SKILL.md`) — here one of the user's own skills.
//
//   OPENAI_API_KEY=sk-... node dist/workspace-tools.js
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, applyPatchTool, Conversation, defaultTools, globTool, grepTool, resolveLLMFromEnv } from '@x/agent';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

//#region files
const workspace = await mkdtemp(join(tmpdir(), 'x-workspace-tools-'));
await mkdir(join(workspace, 'src'));
await writeFile(join(workspace, 'src', 'app.py'), 'def greet():\n    print("hi")\n');
// User-level skills live in $X_HOME/skills (default ~/.x/skills); this example keeps its own in a temp directory.
const userSkills = await mkdtemp(join(tmpdir(), 'x-user-skills-'));
await mkdir(join(userSkills, 'greetings'));
await writeFile(
  join(userSkills, 'greetings', 'SKILL.md'),
  '---\ndescription: How this team writes greetings\n---\nGreetings say "hello", never "hi".\n',
);
//#endregion files

//#region agent
const agent = new Agent({
  llm,
  tools: [...defaultTools(), applyPatchTool, globTool, grepTool],
  agentContext: { loadUserSkills: true, userSkillsDirs: [userSkills] },
});
//#endregion agent

const conversation = await Conversation.create({
  agent,
  workspace,
  onEvent: (event) => {
    if (event.kind === 'ConversationErrorEvent') console.log('error:', event.code, event.detail);
    if (event.kind === 'ActionEvent') console.log('tool call:', event.tool_name);
    if (event.kind === 'ObservationEvent') {
      const text = event.observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      console.log(`observation (${event.observation.kind}):`, text.split('\n')[0]);
    }
  },
});
await conversation.sendMessage('Make the greeting in src/app.py follow our greetings skill.');
const result = await conversation.run();
console.log('status:', result.status);
console.log('src/app.py now:', JSON.stringify(await readFile(join(workspace, 'src', 'app.py'), 'utf8')));
await conversation.close();
