import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * The Node built-ins a fresh process has loaded once it imported the built package (`dist/`, as users get it), and
 * after it also ran `script` (an ES module body with the package's exports in scope as `x`).
 */
function builtinsAfterImport(script = ''): Promise<{ afterImport: string[]; afterScript: string[] }> {
  const program = `
    const loaded = () => process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
    const x = await import('./dist/index.js');
    const afterImport = loaded();
    ${script}
    process.stdout.write(JSON.stringify({ afterImport, afterScript: loaded() }));
  `;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', program],
      { cwd: packageDir, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as { afterImport: string[]; afterScript: string[] });
      },
    );
  });
}

// Importing the package is every process's cost (CLI start-up, serverless cold starts, the peer benchmark's 10-step
// loop): `node:child_process` (with net, dgram and more behind it) loads only where a process is started.
describe('the import of @x/agent', () => {
  it('loads no process, network or HTTP built-in', async () => {
    const { afterImport } = await builtinsAfterImport();
    expect(afterImport).not.toContain('child_process');
    expect(afterImport).not.toContain('net');
    expect(afterImport).not.toContain('http');
  });

  it('loads node:child_process when a sandbox first starts a command', async () => {
    const { afterImport, afterScript } = await builtinsAfterImport(`
      const sandbox = x.createUnsandboxedSandbox({ workspace: process.cwd(), warn: () => undefined });
      const result = await x.runSandboxed(sandbox, { command: process.execPath, args: ['-e', ''], cwd: process.cwd(), env: {} });
      if (result.exitCode !== 0) throw new Error('the command failed: ' + JSON.stringify(result));
      await sandbox.dispose();
    `);
    expect(afterImport).not.toContain('child_process');
    expect(afterScript).toContain('child_process');
  });
});
