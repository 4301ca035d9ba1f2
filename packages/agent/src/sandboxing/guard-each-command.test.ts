// A command's mount-table checks (this guard's, the store's guard when the table changed, the sandbox's own checks
// around its private root) read /proc/self/mountinfo once between them. Counted through `mountInfoFile`, not timed.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../sandbox/create-sandbox.js';
import { currentMountTable } from '../sandbox/internal/mount-table-memo.js';
import { mountInfoFile, readMountInfo } from '../sandbox/internal/mount-table-read.js';
import type { PreparedCommand, Sandbox } from '../sandbox/sandbox.js';
import { guardEachCommand } from './guard-each-command.js';

const realRead = mountInfoFile.read;
afterEach(() => {
  mountInfoFile.read = realRead;
});

/** Counts the reads of the table, answering `table.text` (changed by the test between commands). */
function countReads(text: string) {
  const table = { text, reads: 0 };
  mountInfoFile.read = () => {
    table.reads += 1;
    return table.text;
  };
  return table;
}

const command = { command: '/bin/true', args: [], cwd: '/', env: {} };
const prepared: PreparedCommand = { command: '/bin/true', args: [], cwd: '/', env: {}, release: async () => {} };

/** A sandbox whose commands look at the table as the real one's do: twice (its two checks around the private root). */
function fakeSandbox(seen: (string | undefined)[], after?: { leave(read: () => void): void }): Sandbox {
  const look = () => {
    seen.push(currentMountTable([]).mountinfo);
    seen.push(readMountInfo());
  };
  return {
    kind: 'bubblewrap',
    policy: undefined as never,
    workspace: '/',
    prepare: async () => {
      look();
      // Something the command's setup leaves running, that reads the table once the setup is over.
      after?.leave(() => seen.push(readMountInfo()));
      return prepared;
    },
    spawn: async () => {
      look();
      return undefined as never;
    },
    signal: () => {},
    dispose: async () => {},
  };
}

describe('guardEachCommand: one read of the mount table per command', () => {
  it('shares the read between its check, the guard and the sandbox’s checks, each command reading afresh', async () => {
    const table = countReads('mounts-1');
    const seen: (string | undefined)[] = [];
    const guarded: (string | undefined)[] = [];
    const sandbox = guardEachCommand(fakeSandbox(seen), async () => void guarded.push(readMountInfo()), 'mounts-1');

    await sandbox.prepare(command);
    expect(table.reads).toBe(1);
    expect(guarded).toEqual([]);
    expect(seen).toEqual(['mounts-1', 'mounts-1']);

    // The table changed: the guard runs, on the same read as the check and the sandbox.
    table.text = 'mounts-2';
    await sandbox.spawn(command);
    expect(table.reads).toBe(2);
    expect(guarded).toEqual(['mounts-2']);
    expect(seen.slice(2)).toEqual(['mounts-2', 'mounts-2']);

    // Unchanged since the guard passed: no guard, one read.
    await sandbox.prepare(command);
    expect(table.reads).toBe(3);
    expect(guarded).toEqual(['mounts-2']);
  });

  it('runs the guard again at the next command when it refused, on that command’s read', async () => {
    const table = countReads('bound');
    let refuse = true;
    const sandbox = guardEachCommand(
      fakeSandbox([]),
      async () => {
        readMountInfo();
        if (refuse) throw new Error('the store is mounted');
      },
      'before',
    );
    await expect(sandbox.prepare(command)).rejects.toThrow('the store is mounted');
    expect(table.reads).toBe(1);
    refuse = false;
    await sandbox.prepare(command);
    expect(table.reads).toBe(2);
  });

  it('shares nothing once the command’s setup is over: what it left running reads afresh', async () => {
    const table = countReads('mounts-1');
    const seen: (string | undefined)[] = [];
    let later: (() => void) | undefined;
    let leftRunning: Promise<void> | undefined;
    const sandbox = guardEachCommand(
      fakeSandbox(seen, {
        leave: (read) => {
          let release!: () => void;
          // Created inside the setup (so it carries its async context), run after it.
          leftRunning = new Promise<void>((resolve) => {
            release = resolve;
          }).then(read);
          later = release;
        },
      }),
      async () => {},
      'mounts-1',
    );
    await sandbox.prepare(command);
    expect(table.reads).toBe(1);
    table.text = 'mounts-2';
    later?.();
    await leftRunning;
    expect(table.reads).toBe(2);
    expect(seen.at(-1)).toBe('mounts-2');
  });

  it('lets concurrent commands each read their own table', async () => {
    const table = countReads('mounts-1');
    const seen: (string | undefined)[] = [];
    const sandbox = guardEachCommand(fakeSandbox(seen), async () => {}, 'mounts-1');
    const first = sandbox.prepare(command);
    table.text = 'mounts-2';
    const second = sandbox.prepare(command);
    await Promise.all([first, second]);
    expect(table.reads).toBe(2);
    expect([...seen].sort()).toEqual(['mounts-1', 'mounts-1', 'mounts-2', 'mounts-2']);
  });
});

describe('the real sandbox', () => {
  let workspace: string | undefined;
  afterEach(() => {
    if (workspace !== undefined) rmSync(workspace, { recursive: true, force: true });
    workspace = undefined;
  });

  it('reads the table once per command, guarded or not', async () => {
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'x-mount-reads-')));
    const bubblewrap = await createSandbox({ policy: { readablePaths: ['/usr'] }, workspace });
    const text = readFileSync('/proc/self/mountinfo', 'utf8');
    try {
      const table = countReads(text);
      const run = async (sandbox: Sandbox) => {
        const before = table.reads;
        const done = await sandbox.prepare({ command: '/bin/true', args: [], cwd: workspace!, env: {} });
        await done.release();
        return table.reads - before;
      };
      expect(await run(bubblewrap)).toBe(1);
      let guards = 0;
      const guarded = guardEachCommand(
        bubblewrap,
        async () => {
          guards += 1;
          readMountInfo();
        },
        text,
      );
      expect(await run(guarded)).toBe(1);
      // A changed table (one more line break than the guard passed with): the guard runs, still on one read.
      table.text = `${text}\n`;
      expect(await run(guarded)).toBe(1);
      expect(guards).toBe(1);
    } finally {
      mountInfoFile.read = realRead;
      await bubblewrap.dispose();
    }
  }, 60_000);
});
