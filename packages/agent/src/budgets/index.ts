export { type Budget, type BudgetInput, budgetSchema, parseBudget, parseBudgetUsd } from './budget.js';
export {
  BUDGET_FILE,
  type BudgetRecord,
  type BudgetStop,
  budgetRecordSchema,
  budgetStopSchema,
  readBudgetRecord,
} from './budget-record.js';
export { type ActiveBudget, type BudgetStopFigures, budgetStopDetail, checkBudget } from './check-budget.js';
export { type BudgetHost, type BudgetStatus, ConversationBudget } from './conversation-budget.js';
export { estimateNextCallUsd, isFreeModel, pricingOf } from './estimate-next-call.js';
export { InvalidBudgetError } from './invalid-budget-error.js';
export { type Spend, spendOf } from './spend.js';
