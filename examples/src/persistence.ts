// Persistence: every event is appended to the conversation's log before anyone sees it, in the OpenHands
// layout (`<id>/base_state.json` + `<id>/events/event-NNNNN-<id>.json`). A conversation closed here (or in a
// process that crashed) is resumed by id, in this process or another, and continues where it stopped.
//
//   OPENAI_API_KEY=sk-... node dist/persistence.js
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, agentFinalResponse, Conversation, resolveLLMFromEnv } from '@x/agent';
import { createLocalFileStore } from '@x/store';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');
const agent = new Agent({ llm, tools: [] });

//#region store
// Any FileStore: local files (here), memory, S3 (@x/store), or PostgreSQL (@x/store-postgres).
const store = createLocalFileStore({ root: await mkdtemp(join(tmpdir(), 'x-persistence-example-')) });
const first = await Conversation.create({ agent, store });
await first.sendMessage('Remember the number 7.');
await first.run();
await first.close();
console.log('persisted at:', first.location);
//#endregion store

//#region resume
const resumed = await Conversation.resume(first.id, { agent, store });
let count = 0;
for await (const _event of resumed.events()) count += 1;
console.log('events after resume:', count, 'status:', resumed.state.execution_status);
await resumed.sendMessage('Which number did I ask you to remember?');
await resumed.run();
console.log('answer:', await agentFinalResponse(resumed.events()));
await resumed.close();
//#endregion resume
