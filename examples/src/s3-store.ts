// A conversation in S3: the log is written object by object (each event a conditional PutObject, `If-None-Match:
// *`, so two writers can never both take a slot), in the same layout as on disk. Another process, on another
// machine, resumes it from the bucket and continues; the hash chain verifies the objects it finds.
// Needs `@aws-sdk/client-s3` (an optional dependency of @x/store, loaded on first use).
//
//   OPENAI_API_KEY=sk-... X_S3_BUCKET=my-bucket AWS_REGION=eu-west-1 node dist/s3-store.js
//   (AWS_ENDPOINT_URL_S3 for an S3-compatible service such as MinIO)
import { Agent, agentFinalResponse, Conversation, conversationDirName, resolveLLMFromEnv } from '@x/agent';
import { createS3FileStore, verifyEventChain } from '@x/store';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');
const bucket = process.env.X_S3_BUCKET;
if (bucket === undefined) throw new Error('Set X_S3_BUCKET to the bucket to keep conversations in');
const agent = new Agent({ llm, tools: [] });

//#region store
// Credentials and region come from the AWS SDK's usual chain (environment, profile, instance role).
const openStore = () =>
  createS3FileStore({
    bucket,
    prefix: 'conversations/',
    ...(process.env.AWS_ENDPOINT_URL_S3 && { endpoint: process.env.AWS_ENDPOINT_URL_S3, forcePathStyle: true }),
  });
const first = await Conversation.create({ agent, store: openStore() });
await first.sendMessage('Remember the word "lighthouse".');
await first.run();
await first.close();
//#endregion store

//#region resume
// A fresh store, as another machine would open it: everything comes from the bucket.
const store = openStore();
const resumed = await Conversation.resume(first.id, { agent, store });
await resumed.sendMessage('Which word did I ask you to remember?');
await resumed.run();
console.log('answer:', await agentFinalResponse(resumed.events()));
await resumed.close();
const report = await verifyEventChain(store, { dir: `${conversationDirName(first.id)}/events` });
console.log(`chain: ${report.status}, ${report.length} events`);
//#endregion resume
