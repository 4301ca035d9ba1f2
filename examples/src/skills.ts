// Skills: an always-on AGENTS.md (repository context, sent with the system prompt) and a keyword-triggered
// skill (added to the user message that mentions its keyword), read from the workspace as the reference does.
//
//   OPENAI_API_KEY=sk-... node dist/skills.js
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Conversation, createSkill, resolveLLMFromEnv } from '@x/agent';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

//#region files
const workspace = await mkdtemp(join(tmpdir(), 'x-skills-example-'));
await writeFile(join(workspace, 'AGENTS.md'), 'This repository is a ticket tracker written in Go.\n');
await mkdir(join(workspace, '.agents', 'skills'), { recursive: true });
await writeFile(
  join(workspace, '.agents', 'skills', 'deploy.md'),
  ['---', 'triggers:', '  - deploy', '---', 'Deploy with the blue pipeline; never on Fridays.', ''].join('\n'),
);
//#endregion files

//#region agent
const agent = new Agent({
  llm,
  agentContext: {
    loadProjectSkills: true, // AGENTS.md and .agents/skills/ of the conversation's workspace
    skills: [createSkill({ name: 'tests', content: 'Run `go test ./...` before committing.', triggers: ['test'] })],
  },
});
//#endregion agent

const conversation = await Conversation.create({
  agent,
  workspace,
  onEvent: (event) => {
    if (event.kind === 'ConversationErrorEvent') console.log('error:', event.code, event.detail);
    if (event.kind === 'MessageEvent' && event.source === 'user')
      console.log('activated skills:', event.activated_skills);
    if (event.kind === 'MessageEvent' && event.source === 'agent') {
      console.log('answer:', event.llm_message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
    }
  },
});
await conversation.sendMessage('How do we deploy this?');
const result = await conversation.run();
console.log('status:', result.status);
await conversation.close();
