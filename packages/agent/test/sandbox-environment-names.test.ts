// Variable names that are also names of Object.prototype's members, with real bubblewrap: POSIX allows any name
// without `=`, so `__proto__`, `constructor`, `toString` and `hasOwnProperty` are variables like any other. Copied
// into a plain object with `env[name] = value`, `__proto__` sets the object's prototype (a string is ignored) and
// the variable is gone without a word; these check each reaches the command, by the sandbox and by the terminal.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import { defaultInheritedVariables } from '../src/tools/environment/tool-environment.js';
import { createTerminalTool } from '../src/tools/terminal-tool.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
});

afterAll(() => rmSync(layout.root, { recursive: true, force: true }));

/** The command's environment, one `NAME=VALUE` a line (none of these values holds a newline). */
const PRINT_ENV = 'env';

describe('variables named like Object.prototype members', () => {
  it('reach a command runSandboxed starts, on either side of the host/inside split', async () => {
    const sandbox = await createSandbox({ policy: {}, workspace: layout.workspace });
    try {
      // JSON.parse makes `__proto__` an own key, as a client's JSON body or an MCP config would.
      const env = JSON.parse(
        '{"PATH":"/usr/bin:/bin","__proto__":"V","constructor":"W","toString":"X","hasOwnProperty":"Y","TZ":"UTC"}',
      ) as Record<string, string>;
      const result = await runSandboxed(sandbox, {
        command: '/bin/sh',
        args: ['-c', PRINT_ENV],
        cwd: layout.workspace,
        env,
      });
      expect(result.exitCode, result.stderr).toBe(0);
      const lines = result.stdout.split('\n');
      for (const line of ['__proto__=V', 'constructor=W', 'toString=X', 'hasOwnProperty=Y', 'TZ=UTC'])
        expect(lines, line).toContain(line);
    } finally {
      await sandbox.dispose();
    }
  });

  it("reach the terminal's shell, inherited from the host or set explicitly", async () => {
    // process.env holds any name as a variable (it has no prototype setter), written through a name so lint is quiet.
    const name = '__proto__';
    const saved = Object.hasOwn(process.env, name) ? process.env[name] : undefined;
    process.env[name] = 'V';
    const terminal = createTerminalTool({
      environment: {
        inherit: [...defaultInheritedVariables, '__proto__'],
        set: Object.fromEntries([
          ['constructor', 'W'],
          ['hasOwnProperty', 'Y'],
        ]),
      },
    });
    try {
      const observation = await terminal.execute(
        { command: `${PRINT_ENV}; echo done`, kind: 'TerminalAction' } as never,
        { workspace: layout.workspace, conversationId: 'environment-names' },
      );
      const output = JSON.stringify(observation);
      expect(output).toContain('done');
      for (const line of ['__proto__=V', 'constructor=W', 'hasOwnProperty=Y']) expect(output, line).toContain(line);
    } finally {
      await terminal.closeAll();
      if (saved === undefined) delete process.env[name];
      else process.env[name] = saved;
    }
  });
});
