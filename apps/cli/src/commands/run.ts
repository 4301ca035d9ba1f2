import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ConversationOptions } from '@x/agent';
import type { CliContext } from '../context.js';
import { expandHome, resolveDataDir } from '../data-dir.js';
import { NoModelError } from '../errors/no-model-error.js';
import { UsageError } from '../errors/usage-error.js';
import { loadEd25519Key } from '../load-ed25519-key.js';
import { resolveConversation } from '../resolve-conversation.js';
import { readApprovalRules } from '../run/approval-rules-file.js';
import { chooseModel } from '../run/choose-model.js';
import { askConfirmation, closeAnswers } from '../run/confirm-prompt.js';
import { createDemoWorkspace } from '../run/demo-workspace.js';
import { eventLogLayoutOptions } from '../run/event-log-layout.js';
import { extensionOptions } from '../run/extension-options.js';
import { readForkSettings } from '../run/fork-settings.js';
import { createJsonView, stderrOnly } from '../run/json-view.js';
import { createLiveView } from '../run/live-view.js';
import { printRunHeader, printRunOutcome } from '../run/run-report.js';
import { startRunTelemetry } from '../run/run-telemetry.js';
import { runWithConfirmation } from '../run/run-with-confirmation.js';
import { recordedOnOfflineModel, recordedWorkspace, workspaceDir } from '../run/run-workspace.js';
import { describeSandboxPolicy, type SandboxFlags, sandboxPolicyOfFlags } from '../run/sandbox-options.js';
import { terminateOnSignal } from '../run/terminate-on-signal.js';
import { forkTools, toolEnvironment } from '../run/tool-environment.js';

export interface RunCommandOptions {
  workspace?: string;
  dataDir?: string;
  model?: string;
  baseUrl?: string;
  provider?: string;
  confirm?: 'never' | 'always' | 'risky';
  maxIterations?: number;
  condenser?: 'none' | 'summarize';
  resume?: string;
  stream?: boolean;
  /** Wait for another process running the conversation instead of failing with `conversation_running`. */
  wait?: boolean;
  /** With --resume: end a log that lost an event in the middle at the gap (`repairLogGap`). */
  repairLogGap?: boolean;
  demo?: boolean;
  /** NDJSON: the events on stdout, one JSON object a line; everything for people goes to stderr. */
  json?: boolean;
  /** A JSON file of approval rules (`approvalRulesSchema`). */
  approvalRules?: string;
  /** A JSON file in the reference's `mcp_config` shape. */
  mcpConfig?: string;
  /** `--no-skills` sets false: the workspace's AGENTS.md and skill directories are not loaded. */
  skills?: boolean;
  /** `--user-skills`: also the user's skills from $X_HOME/skills. */
  userSkills?: boolean;
  /** A hook file, or `false` for `--no-hooks`. */
  hooks?: string | false;
  subAgents?: boolean;
  /** `--env` values: `NAME` (copied from this process) or `NAME=VALUE`. */
  env?: string[];
  sandbox?: boolean;
  allowNetwork?: boolean | string;
  allowPrivateNetworks?: boolean;
  allowRead?: string[];
  allowWrite?: string[];
  unsandboxed?: boolean;
  sandboxLimit?: SandboxFlags['sandboxLimit'];
  /** `--max-budget`: dollars the conversation may spend (saved with it). */
  maxBudget?: number;
  allowUnknownCost?: boolean;
  /** An Ed25519 private key (PEM) that signs every event of the run. */
  signingKey?: string;
  /** Workspace checkpoints after every step (`workspaceCheckpoints`). */
  checkpoints?: boolean;
}

/** The task `builtInDemoScript()` of @x/agent answers. */
export const DEMO_TASK = 'Create hello.txt containing a greeting, then show its contents';

const POLICIES = {
  never: { kind: 'NeverConfirm' },
  always: { kind: 'AlwaysConfirm' },
  risky: { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true },
} as const;

export async function runCommand(
  context: CliContext,
  task: string | undefined,
  options: RunCommandOptions,
): Promise<number> {
  const started = Date.now();
  const demo = options.demo === true;
  checkOptions(task, options);
  const sandbox = sandboxPolicyOfFlags(options);
  const signingKey = options.signingKey === undefined ? undefined : loadEd25519Key(options.signingKey, 'private');
  const json = options.json === true;
  const output = json ? stderrOnly(context.output) : context.output;
  const agentModule = await import('@x/agent');
  const dataDir = resolveDataDir(options.dataDir, context.env);
  const source = options.resume === undefined ? undefined : resolveConversation(options.resume, { dataDir });
  const workspace = demo
    ? createDemoWorkspace(context.env)
    : workspaceDir(options.workspace ?? (source === undefined ? undefined : recordedWorkspace(source.location)));

  const fork = source === undefined ? {} : await readForkSettings(source.location);
  const model = chooseModel(agentModule, {
    demo,
    model: options.model ?? fork.model,
    baseUrl: options.baseUrl,
    provider: options.provider,
    env: context.env,
  });
  // Resuming a conversation recorded on the offline model (a demo, a fork of one) continues on it; anything else
  // without a configured model has nothing to run with.
  if (model.kind === 'offline' && !(source !== undefined && recordedOnOfflineModel(source.location))) {
    throw new NoModelError();
  }
  if (model.kind === 'demo' && (options.model !== undefined || options.baseUrl !== undefined)) {
    output.error(
      output.errorColors.yellow('--model and --base-url are ignored with --demo (it uses the offline model).'),
    );
  }
  // OTLP export when OTEL_EXPORTER_OTLP_* is set, as for `x serve` (the SDK is loaded only then).
  const telemetry = await startRunTelemetry({ ...context, output });
  const live = json ? createJsonView((text) => process.stdout.write(text)) : createLiveView(output, model.llm.model);
  let askQueue: Promise<unknown> = Promise.resolve();
  const hookFile = chooseHookFile(agentModule, options.hooks, workspace, demo);
  const hooks = hookFile === undefined ? undefined : await agentModule.loadHookConfigFile(hookFile);
  const agent = agentModule.createAgent({
    llm: model.llm,
    ...(fork.tools === undefined ? {} : { tools: forkTools(agentModule, fork.tools, options.env ?? []) }),
    toolEnvironment: toolEnvironment(agentModule, options.env ?? []),
    ...(options.subAgents === true
      ? {
          tools: [
            ...agentModule.defaultTools({ toolEnvironment: toolEnvironment(agentModule, options.env ?? []) }),
            agentModule.createDelegateTool({
              // Sub-agents inherit the confirmation policy; their actions are asked about here, one at a time.
              confirm: (agentId, pending) => {
                const answer = askQueue.then(async () => {
                  output.error(output.errorColors.dim(`Sub-agent ${agentId}:`));
                  return (await askConfirmation(output, pending)) === true;
                });
                askQueue = answer.catch(() => false);
                return answer;
              },
              onSubConversation: ({ agentId, conversation: child }) => {
                child.subscribe((event) => live.onSubEvent(agentId, event));
              },
            }),
          ],
        }
      : {}),
    stream: options.stream === true,
    ...extensionOptions(agentModule, options),
    ...(options.condenser === 'summarize'
      ? { condenser: new agentModule.LLMSummarizingCondenser({ llm: agentModule.withUsageId(model.llm, 'condenser') }) }
      : {}),
  });
  const conversationOptions: Omit<ConversationOptions, 'id'> = {
    agent,
    workspace,
    persistenceDir: source?.parentDir ?? dataDir,
    onEvent: live.onEvent,
    ...eventLogLayoutOptions(context.env),
    workspaceCheckpoints:
      options.checkpoints === true || (source !== undefined && existsSync(join(source.location, '.x-checkpoints'))),
    ...(hooks === undefined ? {} : { hooks }),
    ...(sandbox === undefined ? {} : { sandbox }),
    // The opt-out's warning goes where a person reads it, above the run (stderr).
    ...(sandbox?.mode === 'unsandboxed' ? { openSandbox: warnedOpener(agentModule, output) } : {}),
    ...(options.maxIterations === undefined ? {} : { maxIterationsPerRun: options.maxIterations }),
    ...(signingKey === undefined ? {} : { signingKey }),
    // One owner per conversation (the default leases): a second `x run --resume` fails naming the owner, or waits.
    ...(options.wait === true ? { leaseWaitMs: WAIT_FOR_OWNER_MS } : {}),
    ...(options.maxBudget === undefined
      ? {}
      : { budget: { maxUsd: options.maxBudget, allowUnknownCost: options.allowUnknownCost === true } }),
    ...(options.approvalRules === undefined
      ? {}
      : { approvalRules: readApprovalRules(agentModule, resolve(expandHome(options.approvalRules))) }),
  };
  const policy = options.confirm === undefined ? undefined : POLICIES[options.confirm];
  const conversation =
    source === undefined
      ? await agentModule.Conversation.create({
          ...conversationOptions,
          ...(policy === undefined ? {} : { confirmationPolicy: policy }),
        })
      : await agentModule.Conversation.resume(source.name, {
          ...conversationOptions,
          ...(options.repairLogGap === true ? { repairLogGap: true } : {}),
        });

  printRunHeader(output, {
    id: conversation.id,
    location: conversation.location,
    workspace,
    model,
    resumed: source !== undefined,
    sandbox: describeSandboxPolicy(conversation.sandboxPolicy),
    unsandboxed: conversation.sandboxPolicy.mode === 'unsandboxed',
  });
  if (hookFile !== undefined) output.line(output.colors.dim(`  hooks from ${hookFile}`));
  if (signingKey !== undefined) {
    const { didKeyFromKey } = await import('@x/store');
    output.line(output.colors.dim(`  signing as ${didKeyFromKey(signingKey)}`));
  }
  if (telemetry !== undefined) {
    output.line(output.colors.dim(`  telemetry OTLP ${telemetry.tracesUrl ?? telemetry.metricsUrl}`));
  }
  live.start();
  // A budget stop is recorded as the reference records one (status error, ConversationErrorEvent MaxBudgetReached).
  let budgetStop: string | undefined;
  conversation.subscribe((event) => {
    if (event.kind === 'ConversationErrorEvent' && event.code === 'MaxBudgetReached') budgetStop = event.detail;
    else if (
      event.kind === 'ConversationStateUpdateEvent' &&
      event.key === 'execution_status' &&
      event.value === 'running'
    ) {
      budgetStop = undefined;
    }
  });
  let interrupted = false;
  const controller = new AbortController();
  const onSigint = (): void => {
    if (interrupted) {
      output.error(output.errorColors.yellow('Stopping now.'));
      controller.abort();
      return;
    }
    interrupted = true;
    const running = live.runningAction();
    output.error(
      output.errorColors.yellow(
        running === undefined
          ? 'Pausing after the current step… (Ctrl-C again to stop at once)'
          : `Stopping: waiting for the running command to finish (${running}), then pausing… (Ctrl-C again to stop at once)`,
      ),
    );
    void conversation.pause().catch(() => undefined);
  };
  process.on('SIGINT', onSigint);
  // A signal still exports the spans and metrics finished so far.
  const stopTerminating = terminateOnSignal(conversation, {
    beforeExit: () => telemetry?.shutdown() ?? Promise.resolve(),
  });
  try {
    if (source !== undefined && policy !== undefined) await conversation.setConfirmationPolicy(policy);
    const message = demo ? DEMO_TASK : task;
    if (message !== undefined) await conversation.sendMessage(message);
    await runWithConfirmation(conversation, { ...context, output }, controller.signal);
  } catch (error) {
    // A failed run is recorded in the conversation (its error event was shown above); anything else is not.
    if (!(agentModule.ConversationRunError.isInstance(error) && error.code === 'conversation_run_failed')) throw error;
  } finally {
    process.off('SIGINT', onSigint);
    stopTerminating();
    closeAnswers();
    live.stop();
    await conversation.close();
    await telemetry?.shutdown().catch(() => undefined);
  }
  return printRunOutcome(output, {
    state: conversation.state,
    elapsedMs: Date.now() - started,
    shortId: conversation.id.replace(/-/g, '').slice(0, 8),
    dataDirFlag: options.dataDir === undefined ? '' : ` --data-dir ${options.dataDir}`,
    interrupted,
    ...(budgetStop === undefined ? {} : { budgetStop }),
  });
}

/** `--wait`: as long as another process may reasonably run a conversation (a day), never a busy loop. */
const WAIT_FOR_OWNER_MS = 24 * 60 * 60 * 1000;

/** Opens the explicit opt-out, its once-per-process warning printed in yellow on stderr. */
export function warnedOpener(
  agentModule: typeof import('@x/agent'),
  output: CliContext['output'],
): NonNullable<ConversationOptions['openSandbox']> {
  return async (request) =>
    agentModule.createUnsandboxedSandbox({
      policy: request.policy,
      workspace: request.workspace,
      warn: (message) => output.error(output.errorColors.yellow(`Warning: ${message}`)),
    });
}

function checkOptions(task: string | undefined, options: RunCommandOptions): void {
  if (options.repairLogGap === true && options.resume === undefined) {
    throw new UsageError('--repair-log-gap repairs a saved conversation: give it with --resume <conversation>.');
  }
  if (options.demo === true && (task !== undefined || options.resume !== undefined)) {
    throw new UsageError('--demo runs its own task in a fresh workspace; leave out the task and --resume.');
  }
  if (options.demo !== true && task === undefined && options.resume === undefined) {
    throw new UsageError('No task given.', {
      hint: 'Try `x run "Describe this project"`, or `x run --demo` for the offline demo.',
    });
  }
  if (task !== undefined && task.trim() === '') throw new UsageError('The task is empty.');
  if (options.allowUnknownCost === true && options.maxBudget === undefined) {
    throw new UsageError('--allow-unknown-cost applies to a budget: give --max-budget too.');
  }
}

/** `--hooks <file>`, else the reference's default hook files (not for the demo, nor with `--no-hooks`). */
function chooseHookFile(
  agentModule: typeof import('@x/agent'),
  option: string | false | undefined,
  workspace: string,
  demo: boolean,
): string | undefined {
  if (option === false || demo) return undefined;
  if (option !== undefined) return resolve(expandHome(option));
  return agentModule.findHookConfigFile(workspace);
}
