import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from './create-sandbox.js';
import { detectSandboxSupport, probeSandboxSupport } from './detect-sandbox-support.js';
import { InvalidSandboxPolicyError } from './invalid-sandbox-policy-error.js';
import { runSandboxed } from './run-sandboxed.js';
import { SandboxUnavailableError } from './sandbox-unavailable-error.js';

const workspace = mkdtempSync(join(tmpdir(), 'x-sandbox-create-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe('probeSandboxSupport', () => {
  it('says why when bwrap is missing, broken, or the platform is not Linux', async () => {
    expect(await probeSandboxSupport({ bwrap: undefined })).toEqual({
      available: false,
      reason: expect.stringContaining('`bwrap` (bubblewrap) is not installed in /usr/bin'),
    });
    const broken = await probeSandboxSupport({ bwrap: '/bin/false' });
    expect(broken.available).toBe(false);
    expect(await probeSandboxSupport({ platform: 'darwin' })).toEqual({
      available: false,
      reason: 'bubblewrap needs Linux, and this is darwin',
    });
  });
});

describe('SandboxUnavailableError', () => {
  it('names the reason and the explicit way out', () => {
    const error = new SandboxUnavailableError('`bwrap` (bubblewrap) is not installed');
    expect(error.code).toBe('sandbox_unavailable');
    expect(error.message).toContain('`bwrap` (bubblewrap) is not installed');
    expect(error.message).toContain("mode: 'unsandboxed'");
    expect(error.message).toContain('ensure-bubblewrap.sh');
  });
});

describe('createSandbox', () => {
  it('refuses a policy that does not parse, naming the field', async () => {
    const attempt = createSandbox({
      policy: { network: { mode: 'allowlist', hosts: ['http://example.com/'] } },
      workspace,
    });
    await expect(attempt).rejects.toBeInstanceOf(InvalidSandboxPolicyError);
    await expect(attempt).rejects.toThrow(/network\.hosts\.0: expected a host/);
  });

  it('refuses a missing or relative workspace, and the unsandboxed mode (not its job)', async () => {
    await expect(createSandbox({ policy: {}, workspace: join(workspace, 'missing') })).rejects.toThrow(
      /workspace .*missing does not exist/,
    );
    await expect(createSandbox({ policy: {}, workspace: 'relative/dir' })).rejects.toThrow(/not an absolute path/);
    await expect(createSandbox({ policy: { mode: 'unsandboxed' }, workspace })).rejects.toBeInstanceOf(
      InvalidSandboxPolicyError,
    );
  });
});

describe("the sandbox's /tmp under a memory limit", () => {
  it('is a tmpfs of that size where bubblewrap can size one (0.8.0 and later), so it cannot take more memory', async () => {
    const support = await detectSandboxSupport();
    if (!support.available) throw new Error(support.reason);
    const [major = 0, minor = 0] = support.version.split('.').map((part) => Number.parseInt(part, 10));
    const sizes = major > 0 || minor >= 8;
    const sandbox = await createSandbox({ policy: { limits: { memoryBytes: 48 * 1024 * 1024 } }, workspace });
    try {
      const result = await runSandboxed(sandbox, {
        command: '/bin/sh',
        args: ['-c', "df -k /tmp /dev/shm | tail -n 2 | awk '{print $2}'"],
        cwd: workspace,
        env: { PATH: '/usr/bin:/bin' },
      });
      expect(result.exitCode, result.stderr).toBe(0);
      const kilobytes = result.stdout.trim().split('\n');
      if (sizes) expect(kilobytes).toEqual([String(48 * 1024), String(48 * 1024)]);
      else expect(kilobytes).not.toContain(String(48 * 1024));
    } finally {
      await sandbox.dispose();
    }
  });
});
