// Secrets: a conversation's named secrets reach only the commands that name them, as environment variables,
// and their values are masked (`<secret-hidden>`) in everything recorded: observations, the events on disk, what
// the model is sent. The key a secret needs at rest (`secretKey`) encrypts it in base_state.json; without one,
// the value is not stored at all.
//
//   OPENAI_API_KEY=sk-... node dist/secrets.js
import { mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Conversation, defaultTools, resolveLLMFromEnv } from '@x/agent';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');
const root = await mkdtemp(join(tmpdir(), 'x-secrets-example-'));
const token = 'tok-3f9a61c2-deploy';
await mkdir(join(root, 'workspace'));

//#region secrets
const conversation = await Conversation.create({
  agent: new Agent({ llm, tools: defaultTools() }),
  workspace: join(root, 'workspace'),
  persistenceDir: join(root, 'conversations'),
  // A string, a function called each time a command needs it (a short-lived token), or { value, description }.
  secrets: { DEPLOY_TOKEN: { value: token, description: 'the deploy service token' } },
  onEvent: (event) => {
    if (event.kind === 'AgentErrorEvent') console.log('error:', event.error);
    if (event.kind !== 'ObservationEvent') return;
    for (const part of event.observation.content) if (part.type === 'text') console.log(part.text.trimEnd());
  },
});
//#endregion secrets
await conversation.sendMessage('Deploy: check that $DEPLOY_TOKEN is set, without printing it.');
const result = await conversation.run();
console.log('status:', result.status);
await conversation.close();

// Every file the conversation wrote: none holds the value.
const files = (await readdir(join(root, 'conversations'), { recursive: true, withFileTypes: true })).filter((entry) =>
  entry.isFile(),
);
let leaked = 0;
for (const file of files) if ((await readFile(join(file.parentPath, file.name), 'utf8')).includes(token)) leaked += 1;
console.log(`files with the value: ${leaked} of ${files.length}`);
