// Three agent servers (replicas) on one PostgreSQL database: a conversation created and run on one replica is
// answered, streamed and run by the others. In production each replica is its own `x serve` process behind a
// load balancer; here they share this process to keep the example short.
//
//   X_SERVER_DATABASE_URL=postgres://... OPENAI_API_KEY=sk-... node dist/replicas-postgres.js
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BuiltServer, buildServer, resolveServerConfig } from '@x/server';
import { RemoteConversation } from '@x/server/client';

if (!process.env.X_SERVER_DATABASE_URL) throw new Error('Set X_SERVER_DATABASE_URL to a PostgreSQL database URL');
if (!process.env.OPENAI_API_KEY) throw new Error('No model configured: set OPENAI_API_KEY (and OPENAI_BASE_URL)');

//#region replicas
// Every replica reads X_SERVER_DATABASE_URL; each keeps its own data directory (workspaces stay local).
const replicas: BuiltServer[] = [];
const urls: string[] = [];
for (const name of ['a', 'b', 'c']) {
  const dataDir = await mkdtemp(join(tmpdir(), `x-replica-${name}-`));
  const replica = await buildServer(resolveServerConfig(process.env, { port: 0, dataDir, logLevel: 'silent' }));
  replicas.push(replica);
  urls.push((await replica.listen()).url);
}
const [a, b, c] = urls as [string, string, string];
//#endregion replicas

//#region conversation
const agent = {
  llm: { model: process.env.X_MODEL ?? 'gpt-4o-mini', base_url: process.env.OPENAI_BASE_URL ?? null },
  tools: [],
};
// Created and run on replica A.
const onA = await RemoteConversation.create(a, { agent });
await onA.sendMessage('Say "first answer".');
console.log('run on A:', (await onA.run()).status);

// Replica B never saw the create: it finds the conversation in the shared tables.
const onB = await RemoteConversation.attach(b, onA.id);
const eventsOnB = [];
for await (const event of onB.events()) eventsOnB.push(event);
console.log('events on B:', eventsOnB.length);

// Replica C runs the next turn; A's event stream receives its events live.
const answerSeenOnA = new Promise<string>((resolve) => {
  onA.subscribe((event, index) => {
    if (index !== undefined && index >= eventsOnB.length && event.kind === 'MessageEvent' && event.source === 'agent') {
      resolve(event.llm_message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
    }
  });
});
const onC = await RemoteConversation.attach(c, onA.id);
await onC.sendMessage('Now say "second answer".');
console.log('run on C:', (await onC.run()).status);
console.log('A streamed the answer from C:', await answerSeenOnA);
//#endregion conversation

for (const conversation of [onA, onB, onC]) await conversation.close();
for (const replica of replicas) await replica.close();
