import { parseBudget } from '../budgets/index.js';
import type { ConversationOptions } from './conversation-options.js';

/** The conversation's budget option, checked (`InvalidBudgetError` naming `ConversationOptions.budget`), if given. */
export function budgetOption(options: Pick<ConversationOptions, 'budget'>) {
  return options.budget === undefined ? undefined : parseBudget(options.budget, 'ConversationOptions.budget');
}
