// A browser page with the React hook: the agent server in this process, and a small page server that serves the
// page (src/react-chat/page.tsx, bundled by `pnpm build`) and passes /api and /sockets on to the agent server, so
// the page talks to it from its own origin, as it would behind a dev server's proxy or one reverse proxy.
//
//   OPENAI_API_KEY=sk-... node dist/react-chat.js     (OPENAI_BASE_URL for another endpoint), then open the address
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer, resolveServerConfig } from '@x/server';

if (!process.env.OPENAI_API_KEY) throw new Error('No model configured: set OPENAI_API_KEY (and OPENAI_BASE_URL)');

//#region agent server
const apiKey = randomBytes(16).toString('hex');
const agentServer = await buildServer(
  resolveServerConfig(process.env, {
    port: 0,
    dataDir: await mkdtemp(join(tmpdir(), 'x-react-chat-')),
    apiKeys: [apiKey],
    logLevel: 'silent',
  }),
);
const target = new URL((await agentServer.listen()).url);
const created = await fetch(new URL('/api/conversations', target), {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-session-api-key': apiKey },
  body: JSON.stringify({
    agent: {
      llm: { model: process.env.X_MODEL ?? 'gpt-4o-mini', base_url: process.env.OPENAI_BASE_URL ?? null },
      tools: [],
    },
    workspace: { working_dir: '.' },
  }),
});
const { id } = (await created.json()) as { id: string };
//#endregion agent server

//#region page-server
const page = await readFile(new URL('./react-chat/page.js', import.meta.url), 'utf8');
const html =
  '<!doctype html><html><head><meta charset="utf-8"><title>x · react chat</title></head>' +
  '<body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';

/** The agent server checks Host and Origin: to it, the proxied request comes from its own origin. */
function forwardedHeaders(headers: NodeJS.Dict<string | string[]>): NodeJS.Dict<string | string[]> {
  return { ...headers, host: target.host, ...(headers.origin === undefined ? {} : { origin: target.origin }) };
}

const pageServer = createServer((incoming, outgoing) => {
  const path = incoming.url ?? '/';
  if (path === '/' || path === '/page.js') {
    outgoing.writeHead(200, { 'content-type': path === '/' ? 'text/html' : 'text/javascript' });
    outgoing.end(path === '/' ? html : page);
    return;
  }
  const proxied = request(
    {
      host: target.hostname,
      port: target.port,
      path,
      method: incoming.method,
      headers: forwardedHeaders(incoming.headers),
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  proxied.on('error', () => outgoing.writeHead(502).end());
  incoming.pipe(proxied);
});
// The event WebSocket: the upgrade request is replayed to the agent server, then bytes flow both ways.
pageServer.on('upgrade', (incoming, socket, head) => {
  const upstream = connect(Number(target.port), target.hostname, () => {
    const headers = forwardedHeaders(incoming.headers);
    const lines = Object.entries(headers).flatMap(([name, value]) =>
      [value ?? []].flat().map((one) => `${name}: ${one}`),
    );
    upstream.write(`${incoming.method} ${incoming.url} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    upstream.write(head);
    upstream.pipe(socket).pipe(upstream);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
});
await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
const { port } = pageServer.address() as { port: number };
console.log(`open http://127.0.0.1:${port}/#conversation=${id}&key=${apiKey}`);
//#endregion page-server

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    pageServer.closeAllConnections();
    pageServer.close();
    void agentServer.close().then(() => process.exit(0));
  });
}
