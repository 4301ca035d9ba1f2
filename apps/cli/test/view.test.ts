import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startBackground } from './helpers/background.js';
import { tempDir } from './helpers/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../../../packages/events/test/__fixtures__/openhands/', import.meta.url));
const home = tempDir();
const env = { X_HOME: home.path };
const dir = join(home.path, 'copied', '03_parallel_tool_calls');
cpSync(join(FIXTURES, '03_parallel_tool_calls'), dir, { recursive: true });
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as {
  conversation_id: string;
  event_count: number;
};

afterAll(() => home.remove());

/** Every file under `root` with its content hash: any write shows up as a difference. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[full.slice(root.length)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(root);
  return files;
}

async function get(url: string, key?: string): Promise<{ status: number; body: string; headers: Headers }> {
  const response = await fetch(url, { headers: key === undefined ? {} : { 'X-Session-API-Key': key } });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

describe('x view', () => {
  it('serves the viewer and the API for a conversation directory the reference wrote, with a printed key', async () => {
    const before = snapshot(dir);
    const view = startBackground(['view', dir, '--port', '0'], env);
    try {
      const [, pageUrl, base] = await view.waitFor(/on ((http:\/\/127\.0\.0\.1:\d+)\/#\/c\/([0-9a-f]{32}))/);
      const key = (await view.waitFor(/session key\s+(\S+)/))[1] ?? '';
      const hex = expected.conversation_id.replace(/-/g, '');
      expect(pageUrl).toBe(`${base}/#/c/${hex}`);
      expect(pageUrl).not.toContain(key);

      const page = await get(`${base}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect((await get(`${base}/api/conversations/search`)).status).toBe(401);

      const list = JSON.parse((await get(`${base}/api/conversations/search`, key)).body) as { items: { id: string }[] };
      expect(list.items.map((item) => item.id)).toEqual([expected.conversation_id]);
      const count = await get(`${base}/api/conversations/${hex}/events/count`, key);
      expect(Number(count.body)).toBe(expected.event_count);
      const info = JSON.parse((await get(`${base}/api/conversations/${hex}`, key)).body) as {
        execution_status: string;
      };
      expect(info.execution_status).toBe('finished');
    } finally {
      expect(await view.interrupt()).toBe(0);
    }
    // Viewing wrote nothing: no meta.json, no checkpoint of base_state.json.
    expect(snapshot(dir)).toEqual(before);
  });

  it('serves every conversation of the data directory without an argument', async () => {
    const data = join(home.path, 'conversations');
    cpSync(dir, join(data, expected.conversation_id.replace(/-/g, '')), { recursive: true });
    const view = startBackground(['view', '--port', '0', '--api-key', 'chosen-key'], env);
    try {
      const [, base] = await view.waitFor(/on (http:\/\/127\.0\.0\.1:\d+)\//);
      const list = JSON.parse((await get(`${base}/api/conversations/search`, 'chosen-key')).body) as {
        items: { id: string; execution_status: string }[];
      };
      expect(list.items.map((item) => item.id)).toEqual([expected.conversation_id]);
    } finally {
      expect(await view.interrupt()).toBe(0);
    }
  });
});
