import type { Sandbox } from '../sandbox/sandbox.js';
import { sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { SandboxUnavailableError } from '../sandbox/sandbox-unavailable-error.js';
import { openDefaultSandbox } from '../sandboxing/sandbox-opener.js';
import type { HookDefinition } from './hook-config.js';
import { hookEnvironment } from './hook-environment.js';
import type { HookInput, HookOutput } from './hook-input.js';
import { parseHookStdout, readHookOutput } from './hook-output.js';
import type { HookResult } from './hook-result.js';
import { spawnHook } from './internal/spawn-hook.js';

export interface RunHookOptions {
  /** Working directory of command hooks. */
  workspace: string;
  /**
   * Where command hooks run (a conversation's sandbox, opened on first call). Without one, each command hook
   * runs in a sandbox of the default policy opened for it and ended with it.
   */
  sandbox?: () => Promise<Sandbox>;
  /** Variables added to the hook's minimal environment (see `hookEnvironment`). */
  env?: Readonly<Record<string, string>>;
}

/**
 * Runs one hook and throws only `SandboxUnavailableError` (a host without a sandbox, which no hook result may
 * hide). Exit code semantics are the reference's: 0 succeeds (stdout may carry a
 * JSON answer), 2 blocks (stderr says why), any other code is a non-blocking error. A timeout, a crash, a
 * command that cannot start, invalid JSON or a function that throws all come back as `success: false` with
 * an `error`, and never block.
 */
export async function runHook(hook: HookDefinition, input: HookInput, options: RunHookOptions): Promise<HookResult> {
  if (hook.type === 'function') return runFunctionHook(hook, input);
  let sandbox: Sandbox;
  let own = false;
  try {
    if (options.sandbox === undefined) {
      own = true;
      sandbox = await openDefaultSandbox({ policy: sandboxPolicySchema.parse({}), workspace: options.workspace });
    } else {
      sandbox = await options.sandbox();
    }
  } catch (error) {
    // A host without a sandbox is never a hook failure to go on after: the caller hears of it.
    if (SandboxUnavailableError.isInstance(error)) throw error;
    return failure(`Hook execution failed: no sandbox to run it in: ${(error as Error).message}`);
  }
  const spawned = await spawnHook({
    sandbox,
    ...(own ? { onSettled: () => void sandbox.dispose() } : {}),
    command: hook.command,
    cwd: options.workspace,
    env: hookEnvironment({
      workspace: options.workspace,
      sessionId: input.session_id ?? '',
      eventType: input.event_type,
      // As the reference (`if event.tool_name:`): an empty name is no tool.
      ...(input.tool_name ? { toolName: input.tool_name } : {}),
      ...(options.env === undefined ? {} : { extra: options.env }),
    }),
    stdin: JSON.stringify(input),
    timeoutMs: hook.timeout * 1000,
    background: hook.async,
  });
  switch (spawned.kind) {
    case 'started':
      return { success: true, blocked: false, exit_code: 0, stdout: '', stderr: '' };
    case 'failed':
      return failure(`Hook execution failed: ${spawned.message}`);
    case 'timed_out':
      return {
        ...failure(`Hook timed out after ${hook.timeout} seconds`),
        stdout: spawned.stdout,
        stderr: spawned.stderr,
      };
    case 'exited': {
      const { exitCode, stdout, stderr } = spawned;
      const output = parseHookStdout(stdout);
      const blocked = exitCode === 2 || output.blocked;
      const crashed = exitCode !== 0 && exitCode !== 2;
      const errors = [
        ...(crashed ? [`Hook exited with code ${exitCode}${stderr.trim() ? `: ${lastLine(stderr)}` : ''}`] : []),
        ...(output.error === undefined ? [] : [output.error]),
      ];
      return {
        success: exitCode === 0 && output.error === undefined,
        blocked,
        exit_code: exitCode,
        stdout,
        stderr,
        ...pick(output),
        ...(errors.length === 0 ? {} : { error: errors.join('; ') }),
      };
    }
  }
}

async function runFunctionHook(hook: Extract<HookDefinition, { type: 'function' }>, input: HookInput) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), hook.timeout * 1000);
  });
  try {
    const value = await Promise.race([
      Promise.resolve().then(() => hook.run(input, { signal: controller.signal })),
      timeout,
    ]);
    if (value === 'timeout') {
      controller.abort();
      return failure(`Hook timed out after ${hook.timeout} seconds`);
    }
    const output = readHookOutput(value satisfies HookOutput | undefined);
    return {
      success: output.error === undefined,
      blocked: output.blocked,
      exit_code: 0,
      stdout: '',
      stderr: '',
      ...pick(output),
      ...(output.error === undefined ? {} : { error: output.error }),
    } satisfies HookResult;
  } catch (error) {
    return failure(`Hook function '${hook.name}' threw: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function failure(error: string): HookResult {
  return { success: false, blocked: false, exit_code: -1, stdout: '', stderr: '', error };
}

function pick(output: ReturnType<typeof readHookOutput>): Partial<HookResult> {
  return {
    ...(output.decision === undefined ? {} : { decision: output.decision }),
    ...(output.reason === undefined ? {} : { reason: output.reason }),
    ...(output.additional_context === undefined ? {} : { additional_context: output.additional_context }),
  };
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1]!.slice(0, 500);
}
