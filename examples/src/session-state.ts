// Session state and artifacts (orxhestra's `state_delta` and `artifact_delta`): a key/value state and versioned
// files that a conversation's tools and its owner change. Each change is an event in the log, so it persists,
// survives a resume and is the same on every replica; every version of an artifact stays loadable.
//
//   OPENAI_API_KEY=sk-... node dist/session-state.js
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Conversation, defineTool, resolveLLMFromEnv } from '@x/agent';
import { createLocalFileStore } from '@x/store';
import { z } from 'zod';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

//#region tool
const saveDraft = defineTool({
  name: 'save_draft',
  description: 'Save a new draft of the release notes.',
  parameters: z.object({ text: z.string() }),
  execute: async ({ text }, context) => {
    const session = context.conversation?.session;
    if (session === undefined) throw new Error('save_draft needs a conversation');
    const { version } = await session.saveArtifact('release-notes.md', text);
    await session.update({ drafts: version, last_saved_by: 'save_draft' });
    return { content: `saved draft ${version}` };
  },
});
//#endregion tool

const store = createLocalFileStore({ root: await mkdtemp(join(tmpdir(), 'x-session-example-')) });
const agent = new Agent({ llm, tools: [saveDraft] });
const conversation = await Conversation.create({ agent, store });
//#region owner
await conversation.session.update({ audience: 'customers', tone: 'plain' }); // the owner's own keys
//#endregion owner
await conversation.sendMessage('Write the release notes in two drafts: save a first draft, then a better one.');
await conversation.run();
await conversation.close();

//#region resume
const resumed = await Conversation.resume(conversation.id, { agent, store });
console.log('session state:', JSON.stringify(resumed.session.state));
console.log('versions:', resumed.session.artifactVersions('release-notes.md').join(', '));
console.log('first draft:', (await resumed.session.loadArtifact('release-notes.md', 1)).text());
console.log('latest draft:', (await resumed.session.loadArtifact('release-notes.md')).text());
//#endregion resume
await resumed.close();
