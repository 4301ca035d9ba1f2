/**
 * Listing benchmark: a page of `GET /api/conversations/search` (and a count) on a server with 10,000
 * conversations on disk, against the target of 50 ms a page; the start-up cost of the index (one meta.json
 * read per conversation); and the server's heap and RSS before and after walking every page, then after the
 * idle conversations are released. This file writes the conversations; `listing-server.ts`, in a process of its
 * own, serves and measures them. Run by `pnpm bench`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../src/index.js';

const CONVERSATIONS = Number(process.env.BENCH_LISTING_CONVERSATIONS ?? 10_000);

const dataDir = await mkdtemp(join(tmpdir(), 'x-listing-bench-'));
try {
  const setup = await buildServer({ port: 0, dataDir, logLevel: 'silent' });
  const { url: setupUrl } = await setup.listen();
  const created = await setup.app.inject({
    method: 'POST',
    url: '/api/conversations',
    headers: { host: new URL(setupUrl).host },
    payload: { agent: { llm: { model: 'offline' } }, title: 'template' },
  });
  const template = (created.json() as { id: string }).id.replace(/-/g, '');
  await setup.close();

  // Copies of one conversation under new ids, each with its own meta.json (id, title, creation time).
  const root = join(dataDir, 'conversations');
  const meta = JSON.parse(await readFile(join(root, template, 'meta.json'), 'utf8')) as Record<string, unknown>;
  for (let start = 0; start < CONVERSATIONS; start += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, CONVERSATIONS - start) }, async (_, offset) => {
        const n = start + offset;
        const hex = n.toString(16).padStart(32, '0');
        await cp(join(root, template), join(root, hex), { recursive: true });
        const time = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString().replace('Z', '+00:00');
        await writeFile(
          join(root, hex, 'meta.json'),
          JSON.stringify({ ...meta, id: hex, title: `job ${n}`, created_at: time, updated_at: time }),
        );
      }),
    );
  }

  // The server runs in a process of its own, so that its memory figures are the server's alone (this process
  // just copied 10,000 directories). It inherits this process's flags: --expose-gc and the bench-home preload.
  const server = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(new URL('./listing-server.ts', import.meta.url))],
    {
      env: { ...process.env, BENCH_LISTING_DIR: dataDir, BENCH_LISTING_CONVERSATIONS: String(CONVERSATIONS) },
      stdio: 'inherit',
    },
  );
  const [code] = (await once(server, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the listing server exited with ${code}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
