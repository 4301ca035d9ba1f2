// A conversation's sandbox against an opener of the test's own: opened once on first need, recorded at each open, a
// failed open or record retried (and the sandbox of a failed record disposed), an unavailable sandbox remembered
// until an open succeeds, and disposing ends the opened sandbox only.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../sandbox/sandbox.js';
import { type SandboxPolicy, sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { SandboxUnavailableError } from '../sandbox/sandbox-unavailable-error.js';
import { ConversationSandbox } from './conversation-sandbox.js';
import type { SandboxRequest } from './sandbox-opener.js';

const policy: SandboxPolicy = sandboxPolicySchema.parse({ network: { mode: 'all' } });

interface FakeSandbox extends Sandbox {
  disposed: number;
}

function fakeSandbox(request: SandboxRequest): FakeSandbox {
  const sandbox = {
    kind: 'bubblewrap' as const,
    policy: request.policy,
    workspace: request.workspace,
    disposed: 0,
    prepare: () => Promise.reject(new Error('not in this test')),
    spawn: () => Promise.reject(new Error('not in this test')),
    signal: () => undefined,
    dispose: async () => {
      sandbox.disposed += 1;
    },
  };
  return sandbox;
}

/** An opener that answers each call with the next outcome (an error to throw, or a sandbox). */
function scriptedOpener(outcomes: ('open' | Error)[]) {
  const requests: SandboxRequest[] = [];
  const opened: FakeSandbox[] = [];
  const open = async (request: SandboxRequest): Promise<Sandbox> => {
    requests.push(request);
    const outcome = outcomes.shift() ?? 'open';
    if (outcome instanceof Error) throw outcome;
    const sandbox = fakeSandbox(request);
    opened.push(sandbox);
    return sandbox;
  };
  return { open, requests, opened };
}

describe('ConversationSandbox', () => {
  it('opens once, on the first need, with its policy and its workspace made absolute', async () => {
    const opener = scriptedOpener([]);
    const sandbox = new ConversationSandbox({ policy, workspace: 'relative/ws', open: opener.open });
    expect(sandbox.policy).toBe(policy);
    expect(sandbox.workspace).toBe('relative/ws');
    expect(opener.requests).toEqual([]);
    const first = await sandbox.get();
    const second = await sandbox.get();
    expect(first).toBe(second);
    expect(first).toBe(opener.opened[0]);
    expect(opener.requests).toEqual([{ policy, workspace: resolve('relative/ws') }]);
  });

  it('records the policy at each open and on recordPolicy, without opening for the latter', async () => {
    const opener = scriptedOpener([]);
    let records = 0;
    const sandbox = new ConversationSandbox({
      policy,
      workspace: '/ws',
      open: opener.open,
      onRecord: async () => {
        records += 1;
      },
    });
    await sandbox.recordPolicy();
    expect(records).toBe(1);
    expect(opener.requests).toHaveLength(0);
    await sandbox.get();
    expect(records).toBe(2);
    await sandbox.dispose();
    await sandbox.get();
    expect(records).toBe(3);
  });

  it('disposes the sandbox whose record failed, rejects, and opens anew at the next need', async () => {
    const opener = scriptedOpener([]);
    let fail = true;
    const sandbox = new ConversationSandbox({
      policy,
      workspace: '/ws',
      open: opener.open,
      onRecord: async () => {
        if (fail) throw new Error('disk full');
      },
    });
    await expect(sandbox.get()).rejects.toThrow('disk full');
    expect(opener.opened[0]?.disposed).toBe(1);
    fail = false;
    const second = await sandbox.get();
    expect(second).toBe(opener.opened[1]);
    expect(opener.opened[1]?.disposed).toBe(0);
  });

  it('remembers an unavailable sandbox until an open succeeds; another failure is retried but not remembered', async () => {
    const unavailable = new SandboxUnavailableError('no bwrap here');
    const opener = scriptedOpener([new Error('transient'), unavailable, 'open']);
    const sandbox = new ConversationSandbox({ policy, workspace: '/ws', open: opener.open });
    expect(() => sandbox.throwIfUnavailable()).not.toThrow();
    await expect(sandbox.get()).rejects.toThrow('transient');
    expect(() => sandbox.throwIfUnavailable()).not.toThrow();
    await expect(sandbox.get()).rejects.toBe(unavailable);
    expect(() => sandbox.throwIfUnavailable()).toThrow(unavailable);
    await sandbox.get();
    expect(() => sandbox.throwIfUnavailable()).not.toThrow();
    expect(opener.requests).toHaveLength(3);
  });

  it('opens a sandbox of another policy in the same workspace, each time, and remembers its unavailability', async () => {
    const other = sandboxPolicySchema.parse({});
    const unavailable = new SandboxUnavailableError('no bwrap here');
    const opener = scriptedOpener(['open', unavailable]);
    const sandbox = new ConversationSandbox({ policy, workspace: 'ws', open: opener.open });
    const opened = await sandbox.openWith(other);
    expect(opened.policy).toBe(other);
    expect(opener.requests[0]).toEqual({ policy: other, workspace: resolve('ws') });
    await expect(sandbox.openWith(other)).rejects.toBe(unavailable);
    expect(() => sandbox.throwIfUnavailable()).toThrow(unavailable);
  });

  it('dispose ends the opened sandbox once and a later need opens a new one; without one it opens nothing', async () => {
    const opener = scriptedOpener([]);
    const sandbox = new ConversationSandbox({ policy, workspace: '/ws', open: opener.open });
    await sandbox.dispose();
    expect(opener.requests).toHaveLength(0);
    const first = await sandbox.get();
    await sandbox.dispose();
    await sandbox.dispose();
    expect(opener.opened[0]?.disposed).toBe(1);
    const second = await sandbox.get();
    expect(second).not.toBe(first);
    expect(opener.requests).toHaveLength(2);
  });
});

describe('ConversationSandbox guard', () => {
  it('refuses every policy it refuses before opening anything: its own, and a wider one for an MCP server', async () => {
    const { open, requests } = scriptedOpener([]);
    const guarded: SandboxPolicy[] = [];
    const sandbox = new ConversationSandbox({
      policy,
      workspace: '/w',
      open,
      guard: async (checked) => {
        guarded.push(checked);
        if (checked.writablePaths.includes('/store')) throw new Error('holds the store');
      },
    });
    const wider = sandboxPolicySchema.parse({ writablePaths: ['/store'] });
    await expect(sandbox.openWith(wider)).rejects.toThrow('holds the store');
    expect(requests).toEqual([]);
    await sandbox.get();
    // The policy asked for, then the one the opened sandbox holds (here the same).
    expect(guarded).toEqual([wider, policy, policy]);
    expect(requests).toHaveLength(1);
  });

  it('refuses, and disposes, a sandbox whose own paths it refuses once opened (a path made a symlink meanwhile)', async () => {
    const opened: FakeSandbox[] = [];
    const checked: string[] = [];
    const sandbox = new ConversationSandbox({
      policy,
      workspace: '/w',
      // The opener resolves the workspace to somewhere else, as a symlink put in its place since would.
      open: async (request) => {
        const resolved = fakeSandbox({ ...request, workspace: '/store/conversation' });
        opened.push(resolved);
        return resolved;
      },
      guard: async (_checked, workspace) => {
        checked.push(workspace);
        if (workspace.startsWith('/store')) throw new Error('holds the store');
      },
    });
    await expect(sandbox.get()).rejects.toThrow('holds the store');
    await expect(sandbox.openWith(policy)).rejects.toThrow('holds the store');
    expect(checked).toEqual(['/w', '/store/conversation', '/w', '/store/conversation']);
    expect(opened.map((one) => one.disposed)).toEqual([1, 1]);
  });
});
