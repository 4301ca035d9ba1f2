// Signed events: the agent signs every event it appends with its own Ed25519 key, and the person who sends the
// messages signs theirs with another; each signer is named by its did:key. The signatures are kept beside the
// events (events/.chain/signatures/), so the event files stay in the OpenHands format. Verification checks each
// one and names the first event that changed after it was signed.
//
//   OPENAI_API_KEY=sk-... node dist/signed-events.js
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Conversation, conversationDirName, resolveLLMFromEnv } from '@x/agent';
import { createLocalFileStore, didKeyFromKey, EventLog, verifyEventSignatures } from '@x/store';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

//#region sign
// In practice: createPrivateKey(readFileSync('agent.pem')) (openssl genpkey -algorithm ed25519 -out agent.pem).
const agentKey = generateKeyPairSync('ed25519').privateKey;
const approverKey = generateKeyPairSync('ed25519').privateKey;
console.log('agent:', didKeyFromKey(agentKey));
console.log('approver:', didKeyFromKey(approverKey));

const root = await mkdtemp(join(tmpdir(), 'x-signed-example-'));
const store = createLocalFileStore({ root });
const conversation = await Conversation.create({
  agent: new Agent({ llm, tools: [], signingKey: agentKey }),
  approverSigningKey: approverKey,
  store,
});
await conversation.sendMessage('Say hello.');
await conversation.run();
await conversation.close();
//#endregion sign

//#region verify
const dir = `${conversationDirName(conversation.id)}/events`;
const log = await EventLog.open(store, { dir });
const report = await verifyEventSignatures(log, { store, dir });
console.log('signatures:', report.status, `${report.signed} of ${report.length} signed`);
for (const signer of report.signers) console.log(`signer ${signer.did}: ${signer.events} event(s)`);
//#endregion verify

// Change what the user said in its event file, as someone rewriting history would.
const files = join(root, dir);
const name = (await readdir(files)).find((file) => file.startsWith('event-00001-'))!;
await writeFile(join(files, name), (await readFile(join(files, name), 'utf8')).replace('Say hello.', 'Say goodbye.'));
const tampered = await verifyEventSignatures(await EventLog.open(store, { dir }), { store, dir });
console.log('after tampering:', tampered.status, tampered.problem?.message);
