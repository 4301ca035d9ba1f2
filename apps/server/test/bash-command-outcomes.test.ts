import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from './helpers.js';

// What the shell route (/api/bash) answers for a command: its exact output, a timeout, and its events a page at a
// time.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type Output = { kind: string; exit_code: number; stdout: string; stderr: string; command_id: string };

async function execute(command: string, timeout?: number): Promise<Output> {
  const ran = await server.call('POST', '/api/bash/execute_bash_command', {
    command,
    ...(timeout === undefined ? {} : { timeout }),
  });
  expect(ran.status).toBe(200);
  return ran.json as Output;
}

describe('a shell command', () => {
  it('answers exactly what it printed on each stream, with nothing added when nothing was dropped', async () => {
    expect(await execute('printf out; printf err >&2; exit 4')).toMatchObject({
      kind: 'BashOutput',
      exit_code: 4,
      stdout: 'out',
      stderr: 'err',
    });
  });

  it('past its timeout is killed, answering -1 and saying so on stderr', async () => {
    const output = await execute('echo started; sleep 120', 1);
    expect(output).toMatchObject({ exit_code: -1, stdout: 'started\n' });
    expect(output.stderr).toBe('Command timed out after 1 seconds');
  });
});

describe('the events of shell commands', () => {
  it('come a page at a time: each next_page_id starts the next page, until every event was seen once', async () => {
    const ids = new Set<string>();
    for (const word of ['one', 'two', 'three']) ids.add((await execute(`echo ${word}`)).command_id);
    const seen: string[] = [];
    let pageId: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const query: string = `kind__eq=BashCommand&limit=1${pageId === null ? '' : `&page_id=${pageId}`}`;
      const page = (await server.call('GET', `/api/bash/bash_events/search?${query}`)).json as {
        items: { id: string }[];
        next_page_id: string | null;
      };
      expect(page.items).toHaveLength(1);
      seen.push(...page.items.map((event) => event.id));
      pageId = page.next_page_id;
      if (pageId === null) break;
    }
    expect(seen.filter((id) => ids.has(id))).toEqual([...ids]);
    expect(new Set(seen).size).toBe(seen.length);
  });
});
