import { randomUUID } from 'node:crypto';
import type { EventLogLike, FileStore } from '@x/store';
import { checkApprovalRules } from '../approvals/approval-rules.js';
import { parseConfirmationPolicy } from '../confirmation/confirmation-policy.js';
import { AgentRoster } from '../handoff/agent-roster.js';
import { type SandboxPolicy, sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { type ConversationSandbox, createConversationSandbox } from '../sandboxing/conversation-sandbox.js';
import { openDefaultSandbox } from '../sandboxing/sandbox-opener.js';
import { currentSandboxPolicy, readSandboxPolicyRecord } from '../sandboxing/sandbox-policy-record.js';
import { createSecretCipher, type SecretCipher } from '../secrets/secret-cipher.js';
import type { SecretRegistry } from '../secrets/secret-registry.js';
import { type ConversationState, initialConversationState } from '../state/conversation-state.js';
import type { SecurityAnalyzerInput } from './analyzer-setting.js';
import { openConversationLog, storeFor, toRegistry } from './conversation-defaults.js';
import type { ConversationOptions } from './conversation-options.js';
import { ConversationExistsError } from './errors/conversation-exists-error.js';
import type { ForkOptions } from './fork-options.js';
import { loadPersistedState } from './load-persisted-state.js';
import { conversationDirName, hyphenateConversationId } from './persistence-layout.js';
import type { SigningControl } from './signing-log.js';

/** Everything a `Conversation` is built from (its constructor's argument). */
export interface ConversationInit {
  options: ConversationOptions;
  store: FileStore;
  log: EventLogLike;
  state: ConversationState;
  secrets: SecretRegistry;
  cipher: SecretCipher | undefined;
  sandbox: ConversationSandbox;
  /** Its agents and which one is in control (`ConversationOptions.agents`). */
  roster: AgentRoster;
  /**
   * Its directory in the store, where everything it writes goes: the one it was read from when resumed, which
   * need not be named by the id it records (a copied or renamed directory).
   */
  directory: string;
  /** The base_state.json it was opened from, whose fields x does not manage are written back (see `buildBaseState`). */
  recordedBaseState?: Readonly<Record<string, unknown>> | undefined;
  /** base_state.json's HEAD or status won over the events: checkpoint before the first append (`loadPersistedState`). */
  checkpointBeforeAppend?: boolean;
  /**
   * A resumed conversation may have no system prompt yet (one the reference created and never messaged): its first
   * message or run writes one first (`writeMissingSystemPrompt`).
   */
  checkSystemPrompt?: boolean;
  /** Whose key signs an event: the conversation sets `inControl`, so the agent in control signs (after a transfer too). */
  signing?: SigningControl;
}

function rosterFor(options: Pick<ConversationOptions, 'agent' | 'agents' | 'escalate'>): AgentRoster {
  return new AgentRoster({ agent: options.agent, agents: options.agents, escalate: options.escalate });
}

/** A conversation's sandbox, recording its policy in the conversation's directory each time it is opened. */
export function conversationSandbox(
  options: Pick<ConversationOptions, 'workspace' | 'openSandbox'>,
  policy: SandboxPolicy,
  record: { store: FileStore; directory: string; sinceEvent: () => number },
): ConversationSandbox {
  return createConversationSandbox({
    policy,
    workspace: options.workspace ?? process.cwd(),
    open: options.openSandbox ?? openDefaultSandbox,
    record,
  });
}

/**
 * The policy is parsed once per conversation: zod's compiled fast path (a `new Function` per object schema, about
 * 1 ms for the sandbox policy on Node 20) would cost more than it saves.
 */
const ONE_SHOT = { jitless: true } as const;

/** The parts of a new conversation; refused before anything is written when it exists. */
export async function initNewConversation(options: ConversationOptions): Promise<ConversationInit> {
  const id = options.id ?? randomUUID();
  // A rule with a blank reason (InvalidApprovalRuleError) and clashing agent names (InvalidAgentRosterError) are
  // refused before anything is written.
  checkApprovalRules(options.approvalRules);
  const roster = rosterFor(options);
  const store = storeFor(options);
  if (await store.exists(`${conversationDirName(id)}/base_state.json`)) {
    throw new ConversationExistsError(id, store.describe(conversationDirName(id)));
  }
  const policy = sandboxPolicySchema.parse(options.sandbox ?? {}, ONE_SHOT);
  const record = { store, directory: conversationDirName(id), sinceEvent: () => 0 };
  const sandbox = conversationSandbox(options, policy, record);
  // A store in the workspace's reach is refused before anything is written (InvalidSandboxPolicyError).
  await sandbox.checkPolicy();
  // The explicit opt-out opens at once (it starts nothing, and says so loudly here). Bubblewrap is probed where
  // a process first starts (a tool, a hook, an MCP server), which fails then with SandboxUnavailableError; the
  // policy is recorded now, as the conversation's from its first event.
  if (policy.mode === 'unsandboxed') await sandbox.get();
  else await sandbox.recordPolicy();
  const signing: SigningControl = { roster };
  const log = await openConversationLog(
    options,
    { conversationId: id, store, dir: `${conversationDirName(id)}/events` },
    signing,
  ).catch(async (error: unknown) => {
    await sandbox.dispose();
    throw error;
  });
  const state = initialConversationState({
    id,
    ...(options.maxIterationsPerRun === undefined ? {} : { maxIterations: options.maxIterationsPerRun }),
    stuckDetection: options.stuckDetection !== false,
    ...(options.confirmationPolicy === undefined
      ? {}
      : { confirmationPolicy: parseConfirmationPolicy(options.confirmationPolicy) }),
  });
  const cipher = options.secretKey === undefined ? undefined : createSecretCipher(options.secretKey);
  const directory = conversationDirName(id);
  const secrets = toRegistry(options.secrets);
  return { options, store, log, state, secrets, cipher, sandbox, roster, directory, signing };
}

/**
 * The directory `Conversation.resume(id)` reads: the one named by the id (`conversationDirName`), else one whose
 * exact name is `id`, so a directory that is not named by an id (a copy, `x run --resume ./backup-1`) is resumed,
 * and written, where it is.
 */
async function resumedDirectory(store: FileStore, id: string): Promise<string> {
  const named = conversationDirName(id);
  if (named === id || id.includes('/') || id === '.' || id === '..') return named;
  const holdsConversation = async (dir: string) =>
    (await store.exists(`${dir}/base_state.json`)) || (await store.exists(`${dir}/events`));
  if (await holdsConversation(named)) return named;
  return (await holdsConversation(id)) ? id : named;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id of the conversation `resume(name)` opens. A UUID (hyphenated or as 32 hex digits) is the id. Any other name
 * is a directory's (a copy, a renamed directory, `x run --resume ./backup-1`): the id its base_state.json records
 * stays the conversation's, so the state written back keeps its identity and the reference, which reads only a UUID
 * there, can still open it. Without a recorded id the name is the id, as before.
 */
async function resumedConversationId(store: FileStore, name: string, directory: string): Promise<string> {
  const hyphenated = hyphenateConversationId(name);
  if (uuidPattern.test(hyphenated)) return hyphenated;
  const path = `${directory}/base_state.json`;
  if (!(await store.exists(path))) return hyphenated;
  try {
    const recorded = (JSON.parse(await store.read(path)) as { id?: unknown } | null)?.id;
    return typeof recorded === 'string' && recorded !== '' ? recorded : hyphenated;
  } catch {
    // A damaged file is reported, naming what is wrong, when the state is loaded from it.
    return hyphenated;
  }
}

/**
 * The parts of a persisted conversation (base_state.json and the events after it). `eventCount` tells the
 * sandbox how far the conversation is when it records its policy: set it to the opened conversation's count.
 */
export async function initResumedConversation(
  id: string,
  options: Omit<ConversationOptions, 'id'>,
): Promise<{ init: ConversationInit; historyEnd: number; eventCount: { current?: () => number } }> {
  checkApprovalRules(options.approvalRules);
  const roster = rosterFor(options);
  const store = storeFor(options);
  const cipher = options.secretKey === undefined ? undefined : createSecretCipher(options.secretKey);
  const directory = await resumedDirectory(store, id);
  const conversationId = await resumedConversationId(store, id, directory);
  const signing: SigningControl = { roster };
  const persisted = await loadPersistedState({
    store,
    id: conversationId,
    directory,
    cipher,
    openLog: (location) => openConversationLog(options, location, signing),
  });
  let state = persisted.state;
  // The agent the log says is in control must be one of those given (UnknownAgentError naming it).
  roster.active(state);
  // A given `null` is the reference's None: it overrides the recorded analyzer as `'none'` does.
  const securityAnalyzer =
    options.securityAnalyzer === undefined ? (persisted.securityAnalyzer ?? 'llm') : options.securityAnalyzer;
  if (options.maxIterationsPerRun !== undefined) state = { ...state, max_iterations: options.maxIterationsPerRun };
  const secrets =
    options.secrets === undefined && persisted.secrets !== undefined ? persisted.secrets : toRegistry(options.secrets);
  // The policy given now, else the one recorded, else the default; recorded when the sandbox is first opened.
  const recorded = currentSandboxPolicy(await readSandboxPolicyRecord(store, directory));
  const policy =
    options.sandbox === undefined
      ? (recorded ?? sandboxPolicySchema.parse({}, ONE_SHOT))
      : sandboxPolicySchema.parse(options.sandbox, ONE_SHOT);
  const eventCount: { current?: () => number } = {};
  const sandbox = conversationSandbox(options, policy, {
    store,
    directory,
    sinceEvent: () => eventCount.current?.() ?? persisted.log.length,
  });
  await sandbox.checkPolicy();
  return {
    init: {
      options: { ...options, id: conversationId, securityAnalyzer },
      store,
      log: persisted.log,
      state,
      secrets,
      cipher,
      sandbox,
      roster,
      directory,
      recordedBaseState: persisted.recordedBaseState,
      checkpointBeforeAppend: persisted.checkpointBeforeAppend,
      checkSystemPrompt: true,
      signing,
    },
    historyEnd: persisted.log.length,
    eventCount,
  };
}

/**
 * The parts of a fork (see `Conversation.fork`): the source's store and runtime settings, not its listeners; its
 * security analyzer and sandbox policy, in a sandbox of its own; the secrets given for the fork only.
 */
export function initForkedConversation(
  source: {
    options: ConversationOptions;
    store: FileStore;
    cipher: SecretCipher | undefined;
    securityAnalyzer: SecurityAnalyzerInput;
    sandboxPolicy: SandboxPolicy;
  },
  fork: { log: EventLogLike; state: ConversationState },
  options: ForkOptions,
): ConversationInit {
  const { onEvent: _listener, ...inherited } = source.options;
  const agent = options.agent ?? source.options.agent;
  return {
    options: {
      ...inherited,
      id: fork.state.id,
      agent,
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
      securityAnalyzer: source.securityAnalyzer,
      ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
    },
    store: source.store,
    log: fork.log,
    state: fork.state,
    secrets: toRegistry(options.secrets),
    cipher: source.cipher,
    sandbox: conversationSandbox(
      options.workspace === undefined ? source.options : { ...source.options, workspace: options.workspace },
      source.sandboxPolicy,
      {
        store: source.store,
        directory: conversationDirName(fork.state.id),
        sinceEvent: () => 0,
      },
    ),
    roster: rosterFor({ ...source.options, agent }),
    directory: conversationDirName(fork.state.id),
  };
}
