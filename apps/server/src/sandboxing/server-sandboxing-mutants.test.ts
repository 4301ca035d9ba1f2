// The server's sandboxing in each of its modes, with a probe of the test's own: what it says at start-up, when it
// refuses tools, what policy a request and a stored conversation get, and which paths overlap the data directory.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxPolicySchema } from '@x/agent';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import { SandboxRequiredError } from './sandbox-required-error.js';
import { resolveServerSandboxing } from './server-sandboxing.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'x-server-sandboxing-mutants-')));
const dataDir = join(root, 'data');
mkdirSync(dataDir);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const available = async () => ({ available: true as const, bwrap: '/usr/bin/bwrap', version: '0.8.0' });
const missing = async () => ({ available: false as const, reason: 'no bwrap on this host' });

function start(options: { unsandboxed: boolean; probe?: typeof available | typeof missing }) {
  const warnings: string[] = [];
  const sandboxing = resolveServerSandboxing({ ...options, dataDir, warn: (message) => warnings.push(message) });
  return { sandboxing, warnings };
}

describe('a host that can sandbox', () => {
  it('runs tools sandboxed, silently, and refuses a request to opt out', async () => {
    const { sandboxing: pending, warnings } = start({ unsandboxed: false, probe: available });
    const sandboxing = await pending;
    expect([sandboxing.mode, sandboxing.reason, warnings]).toEqual(['sandboxed', undefined, []]);
    expect(() => sandboxing.assertCanRun()).not.toThrow();
    expect(sandboxing.policyFor(undefined)).toEqual(sandboxPolicySchema.parse({}));
    expect(sandboxing.policyFor(null).mode).toBe('sandboxed');
    expect(() => sandboxing.policyFor({ mode: 'unsandboxed' })).toThrow(/only the server's operator/);
    expect(sandboxing.storedPolicy({ mode: 'unsandboxed' }).mode).toBe('sandboxed');
  });

  it('refuses a policy that does not parse with 422, naming the field; a stored one falls back to the default', async () => {
    const sandboxing = await start({ unsandboxed: false, probe: available }).sandboxing;
    let thrown: unknown;
    try {
      sandboxing.policyFor({ network: { mode: 'everything' } } as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect((thrown as InvalidRequestError).statusCode).toBe(422);
    expect((thrown as Error).message).toMatch(/^Invalid sandbox policy: sandbox\.network/);
    // Not an object at all (a JSON body's `"sandbox": false`): refused, not taken for "no policy".
    expect(() => sandboxing.policyFor(false as never)).toThrow(InvalidRequestError);
    expect(sandboxing.storedPolicy({ network: { mode: 'everything' } })).toEqual(sandboxPolicySchema.parse({}));
  });
});

describe('a host that cannot sandbox', () => {
  it('says so at start-up and refuses tools, naming why', async () => {
    const { sandboxing: pending, warnings } = start({ unsandboxed: false, probe: missing });
    const sandboxing = await pending;
    expect([sandboxing.mode, sandboxing.reason]).toEqual(['unavailable', 'no bwrap on this host']);
    expect(warnings).toEqual([new SandboxRequiredError('no bwrap on this host').message]);
    expect(() => sandboxing.assertCanRun()).toThrow(SandboxRequiredError);
    expect(() => sandboxing.assertCanRun()).toThrow(/no bwrap on this host/);
  });
});

describe('the operator opt-out', () => {
  it('probes nothing, warns, and runs every policy unsandboxed, a stored one included', async () => {
    let probed = false;
    const probe = async () => {
      probed = true;
      return available();
    };
    const { sandboxing: pending, warnings } = start({ unsandboxed: true, probe });
    const sandboxing = await pending;
    expect(probed).toBe(false);
    expect([sandboxing.mode, sandboxing.reason]).toEqual(['unsandboxed', undefined]);
    expect(warnings).toEqual([expect.stringContaining('WITHOUT a sandbox: the server was started with --unsandboxed')]);
    expect(() => sandboxing.assertCanRun()).not.toThrow();
    expect(sandboxing.policyFor({ network: { mode: 'all' } })).toMatchObject({
      mode: 'unsandboxed',
      network: { mode: 'all' },
    });
    expect(sandboxing.policyFor({ mode: 'unsandboxed' }).mode).toBe('unsandboxed');
    expect(sandboxing.storedPolicy({}).mode).toBe('unsandboxed');
  });
});

describe("paths and the server's data directory", () => {
  it('refuses a path inside it whose name begins with two dots, and accepts a sibling so named', async () => {
    const sandboxing = await start({ unsandboxed: false, probe: available }).sandboxing;
    for (const path of [join(dataDir, '..cache'), join(dataDir, '...'), join(dataDir, '..x', 'deeper')])
      expect(() => sandboxing.policyFor({ readablePaths: [path] }), path).toThrow(InvalidRequestError);
    expect(sandboxing.storedPolicy({ writablePaths: [join(dataDir, '..cache')] }).writablePaths).toEqual([]);
    const sibling = join(root, '..data');
    expect(sandboxing.policyFor({ readablePaths: [sibling] }).readablePaths).toEqual([sibling]);
  });

  it('judges a path that does not exist (yet) as written: inside it refused, elsewhere accepted', async () => {
    const sandboxing = await start({ unsandboxed: false, probe: available }).sandboxing;
    expect(() => sandboxing.policyFor({ writablePaths: [join(dataDir, 'not-yet', 'there')] })).toThrow(
      InvalidRequestError,
    );
    const elsewhere = join(root, 'not-yet');
    expect(sandboxing.policyFor({ writablePaths: [elsewhere] }).writablePaths).toEqual([elsewhere]);
  });
});
