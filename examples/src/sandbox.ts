// The sandbox: everything the agent runs (here the terminal's shell) runs in a bubblewrap sandbox by default,
// with its own PID namespace, no network, the workspace as the only writable place and only the variables the
// tool gives it. This process's keys, its files outside the workspace, its processes and its loopback
// listeners are out of reach by construction, not by the command's good manners. Linux with bubblewrap
// (`apt install bubblewrap`); elsewhere the conversation's first command fails with `SandboxUnavailableError`,
// and the only way on is the explicit `sandbox: { mode: 'sandboxed' }`.
//
//   OPENAI_API_KEY=sk-... node dist/sandbox.js

import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Conversation, defaultTools, resolveLLMFromEnv } from '@x/agent';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

// What the sandboxed commands will look for: a file outside the workspace and a server on this machine's
// loopback. The workspace tells the model where they are.
const workspace = await mkdtemp(join(tmpdir(), 'x-sandbox-example-'));
const outside = join(await mkdtemp(join(tmpdir(), 'x-sandbox-example-outside-')), 'secret.txt');
await writeFile(outside, 'the server-side secret\n');
const server = createServer((_request, response) => response.end('reached the host\n'));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
await writeFile(join(workspace, 'targets.txt'), `file ${outside}\nport ${port}\n`);

//#region sandbox
const conversation = await Conversation.create({
  agent: new Agent({ llm, tools: defaultTools() }),
  workspace,
  // The default policy, spelled out: sandboxed, no network, nothing writable but the workspace.
  sandbox: { mode: 'sandboxed', network: { mode: 'none' }, limits: { wallTimeMs: 60_000 } },
  onEvent: (event) => {
    if (event.kind !== 'ObservationEvent') return;
    for (const part of event.observation.content) if (part.type === 'text') console.log(part.text.trimEnd());
  },
});
console.log('policy:', JSON.stringify(conversation.sandboxPolicy.network));
//#endregion sandbox

await conversation.sendMessage(
  'targets.txt names a file and a port on the host. With the terminal: print OPENAI_API_KEY, read the file, ' +
    'connect to 127.0.0.1 on that port, count the processes you can see, and write a note in the workspace.',
);
const result = await conversation.run();
console.log('status:', result.status);
console.log('note written in the workspace:', (await readFile(join(workspace, 'note.txt'), 'utf8')).trim());
await conversation.close();
server.close();
