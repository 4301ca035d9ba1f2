import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  type ApprovalRules,
  approvalRulesSchema,
  Conversation,
  createOfflineLLM,
  InvalidApprovalRuleError,
} from '../src/index.js';

// A rule's reason is what the model is told of the call it denies (`Action rejected: <reason>`): a blank one
// (whitespace only) would tell it nothing, so it is refused as an empty one is (and as a decision's blank denial
// reason is), by the schema untrusted config is parsed with and by the conversation given typed rules, naming the rule.

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const safe = { name: 'safe', tool: 'terminal', arguments: { command: 'ls' }, status: 'approved' } as const;

async function conversationOptions(approvalRules: ApprovalRules) {
  const dir = await mkdtemp(join(tmpdir(), 'x-rule-reason-'));
  dirs.push(dir);
  const llm = createOfflineLLM({ script: () => ({ content: 'Done.' }) });
  return {
    agent: new Agent({ llm }),
    workspace: dir,
    persistenceDir: dir,
    store: createMemoryFileStore(),
    approvalRules,
  };
}

describe('an approval rule with a blank reason', () => {
  it.each([' ', '\t\n', '\u00a0'])(
    'is refused by approvalRulesSchema (%j), naming the rule and the field',
    (reason) => {
      const parsed = approvalRulesSchema.safeParse([safe, { tool: '*', status: 'denied', reason }]);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues).toMatchObject([{ path: [1, 'reason'], message: expect.stringContaining('blank') }]);
      // Not only a denying rule's: a reason a rule carries is never blank.
      expect(approvalRulesSchema.safeParse([{ ...safe, reason }]).success).toBe(false);
    },
  );

  it('is refused by Conversation.create with InvalidApprovalRuleError naming the rule, nothing written', async () => {
    const options = await conversationOptions([
      safe,
      { name: 'no-rm', tool: 'terminal', status: 'denied', reason: '  ' },
    ]);
    const attempt = Conversation.create({ ...options, id: 'aa'.repeat(16) });
    await expect(attempt).rejects.toBeInstanceOf(InvalidApprovalRuleError);
    await expect(attempt).rejects.toMatchObject({ code: 'invalid_approval_rule', rule: 'no-rm' });
    await expect(attempt).rejects.toThrow("Invalid approval rule 'no-rm': its reason is blank");
    expect(await options.store.list('')).toEqual([]);

    // A rule without a name is named by its index, as its principal is.
    const unnamed = await conversationOptions([safe, { tool: '*', status: 'denied', reason: '\n' }]);
    await expect(Conversation.create(unnamed)).rejects.toMatchObject({ rule: '1' });
  });

  it('is refused when a conversation is resumed with it; a reason that says something, or none, is taken', async () => {
    const options = await conversationOptions([
      safe,
      { name: 'no-rm', tool: 'terminal', status: 'denied', reason: 'no' },
    ]);
    const created = await Conversation.create(options);
    const { id } = created;
    await created.close();
    const blank: ApprovalRules = [{ name: 'no-rm', tool: 'terminal', status: 'denied', reason: ' ' }];
    await expect(Conversation.resume(id, { ...options, approvalRules: blank })).rejects.toBeInstanceOf(
      InvalidApprovalRuleError,
    );
    const resumed = await Conversation.resume(id, { ...options, approvalRules: [{ tool: '*', status: 'denied' }] });
    await resumed.close();
  });
});
