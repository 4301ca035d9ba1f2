// A money budget: the conversation may spend at most BUDGET_USD dollars on model calls (sub-agents included).
// It is checked before every model call against the spend recorded in the conversation's log, so it holds in
// every process that opens the conversation; reaching it stops the run (status `error`, a ConversationErrorEvent
// `MaxBudgetReached` with the figures). Raising it and running again continues.
//
//   OPENAI_API_KEY=sk-... BUDGET_USD=0.02 node dist/budget.js
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Conversation, parseBudgetUsd, resolveLLMFromEnv } from '@x/agent';
import { createLocalFileStore } from '@x/store';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');
const agent = new Agent({ llm, tools: [] });
const store = createLocalFileStore({ root: await mkdtemp(join(tmpdir(), 'x-budget-example-')) });
// InvalidBudgetError (code `invalid_budget`) for a negative or non-numeric amount.
const budget = parseBudgetUsd(process.env.BUDGET_USD ?? '0.02', 'BUDGET_USD');

//#region budget
const conversation = await Conversation.create({ agent, store, budget: { maxUsd: budget } });
await conversation.sendMessage('Think it through in several steps, then tell me a fact about the number 7.');
const first = await conversation.run();
console.log('status:', first.status);
if (first.stoppedBeforeModelCall !== undefined) console.log('stopped:', first.stoppedBeforeModelCall);
const status = await conversation.budgetStatus();
console.log(`spent: $${status.spentUsd.toFixed(6)} of $${budget}`);
await conversation.close();
//#endregion budget

//#region raise
// Another process (or this one, later) raises the budget and runs again: the run continues where it stopped.
const resumed = await Conversation.resume(conversation.id, { agent, store });
await resumed.setBudget({ maxUsd: budget * 10 });
const second = await resumed.run();
console.log('after raising:', second.status);
await resumed.close();
//#endregion raise
