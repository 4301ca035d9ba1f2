import { type AnyEvent, createEvent } from '@x/events';
import type { FileStore } from '@x/store';
import type { LLM, LLMResponse } from '../llm/llm.js';
import type { ConversationStatsSnapshot } from '../llm/metrics.js';
import type { ExecutionStatus } from '../state/execution-status.js';
import { type Budget, type BudgetInput, parseBudget } from './budget.js';
import {
  type BudgetRecord,
  type BudgetStop,
  emptyBudgetRecord,
  readBudgetRecord,
  writeBudgetRecord,
} from './budget-record.js';
import { type ActiveBudget, type BudgetStopFigures, budgetStopDetail, checkBudget } from './check-budget.js';
import { estimateNextCallUsd, isFreeModel, pricingOf } from './estimate-next-call.js';
import { spendOf } from './spend.js';

/** What a conversation lends its budget. */
export interface BudgetHost {
  readonly store: FileStore;
  readonly directory: string;
  /**
   * Optional: writes the record in place of `store.write` (the conversation's: fenced by the run's lease, so a
   * stale owner's write is refused with `LeaseLostError`).
   */
  write?(path: string, data: string): Promise<void>;
  /** The LLM the next step calls (the agent's). */
  llm(): LLM;
  /** The stats as the log has them, held updates included. */
  stats(): ConversationStatsSnapshot;
  /** Whether the next step only executes pending actions (it calls no model). */
  hasPendingActions(): boolean;
  emit(event: AnyEvent): Promise<void>;
  setStatus(status: ExecutionStatus): Promise<void>;
}

/** Where a conversation stands against its budget. */
export interface BudgetStatus {
  /** The conversation's budget; undefined when it has none. */
  budget: Budget | undefined;
  spentUsd: number;
  /** Usage ids and replies whose cost is unknown. */
  unknownCost: { usageIds: string[]; responses: string[] };
  /** Why the last run stopped on a budget; null when none did. */
  lastStop: BudgetStop | null;
}

/**
 * A conversation's money budgets: its own (`x_budget.json`, set with `setBudget`) and its current run's. Asked
 * before every model call (`guard`), from the spend folded out of the log, so the limit holds across processes,
 * replicas and restarts. A stop is recorded as the reference records one (status `error`, ConversationErrorEvent
 * `MaxBudgetReached`) and its figures in `x_budget.json`.
 */
export class ConversationBudget {
  readonly #host: BudgetHost;
  #record: BudgetRecord | undefined;
  #run: ActiveBudget | undefined;

  constructor(host: BudgetHost) {
    this.#host = host;
  }

  /** Sets (or with null removes) the conversation's budget; persisted. `InvalidBudgetError` for a bad one. */
  async set(input: BudgetInput | null, where = 'budget'): Promise<void> {
    const budget = input === null ? null : parseBudget(input, where);
    const record = await this.#load(true);
    this.#record = {
      ...record,
      max_usd: budget?.maxUsd ?? null,
      allow_unknown_cost: budget?.allowUnknownCost ?? false,
    };
    await this.#save(this.#record);
  }

  async status(): Promise<BudgetStatus> {
    const record = await this.#load(true);
    const spend = spendOf(this.#host.stats(), this.#host.llm());
    return {
      budget: budgetOf(record),
      spentUsd: spend.spentUsd,
      unknownCost: { usageIds: spend.unknownCostUsageIds, responses: record.unknown_cost_responses },
      lastStop: record.last_stop,
    };
  }

  /** At the start of a run: re-reads the record (another process may have raised it) and starts `runBudget`. */
  async beginRun(runBudget: Budget | undefined): Promise<void> {
    await this.#load(true);
    this.#run =
      runBudget === undefined
        ? undefined
        : {
            scope: 'run',
            limitUsd: runBudget.maxUsd,
            baselineUsd: spendOf(this.#host.stats()).spentUsd,
            allowUnknownCost: runBudget.allowUnknownCost ?? false,
          };
  }

  endRun(): void {
    this.#run = undefined;
  }

  /**
   * Notes a reply that reported no usage: its cost is unknown (not $0). Only under a budget, and not for a model
   * priced at $0 (the offline model's included): whatever it used cost nothing.
   */
  async noteResponse(llm: LLM, response: LLMResponse): Promise<void> {
    const usage = response.usage;
    if (isFreeModel(llm) || (usage !== null && usage.prompt_tokens + usage.completion_tokens > 0)) return;
    // Read afresh before writing back: a record cached since the run began would undo a budget another process
    // set meanwhile. Replies without usage are rare, so the read costs little.
    const record = await this.#load(true);
    if (this.#budgets(record).length === 0) return;
    this.#record = { ...record, unknown_cost_responses: [...record.unknown_cost_responses, response.id] };
    await this.#save(this.#record);
  }

  /**
   * The record a fork of this conversation starts with; undefined when this one has no budget. The money this
   * conversation spent stays spent: a fork that starts with fresh stats (`resetMetrics`, the default) gets what is
   * left of the budget (never below 0), one that keeps the stats gets the same limit. A budget is never reset by
   * forking, and a fork is never left without one.
   */
  async forkRecord(resetMetrics: boolean): Promise<BudgetRecord | undefined> {
    const record = await this.#load(true);
    if (record.max_usd === null) return undefined;
    const spent = spendOf(this.#host.stats(), this.#host.llm()).spentUsd;
    return {
      ...emptyBudgetRecord(),
      max_usd: resetMetrics ? Math.max(0, record.max_usd - spent) : record.max_usd,
      allow_unknown_cost: record.allow_unknown_cost,
      unknown_cost_responses: record.unknown_cost_responses,
    };
  }

  /**
   * What a sub-agent may spend: the least any budget in force has left (never below 0); undefined without one.
   */
  async remaining(): Promise<{ remainingUsd: number; allowUnknownCost: boolean } | undefined> {
    const budgets = this.#budgets(await this.#load(false));
    if (budgets.length === 0) return undefined;
    const spent = spendOf(this.#host.stats()).spentUsd;
    const left = budgets.map((budget) => budget.limitUsd - (spent - budget.baselineUsd));
    return {
      remainingUsd: Math.max(0, Math.min(...left)),
      allowUnknownCost: budgets.every((budget) => budget.allowUnknownCost),
    };
  }

  /**
   * Before a step: whether it may call the model. A stop sets the status `error`, records a ConversationErrorEvent
   * `MaxBudgetReached` (as the reference does) and its figures in `x_budget.json`, and answers the reason.
   */
  async guard(): Promise<{ proceed: true } | { proceed: false; reason: string }> {
    const host = this.#host;
    const cached = await this.#load(false);
    if (this.#budgets(cached).length === 0 || host.hasPendingActions()) return { proceed: true };
    // The record cached since the run began decides most steps; a stop is decided (and written) only on a fresh
    // read, so a budget another process raised meanwhile is honoured and never overwritten with the stale one.
    if (this.#check(cached) === undefined) return { proceed: true };
    const record = await this.#load(true);
    const stop = this.#check(record);
    if (stop === undefined) return { proceed: true };
    const detail = budgetStopDetail(stop);
    const error = createEvent('ConversationErrorEvent', { source: 'environment', code: 'MaxBudgetReached', detail });
    await host.setStatus('error');
    await host.emit(error);
    this.#record = {
      ...record,
      last_stop: { ...stop, error_event_id: error.id, recorded_at: new Date().toISOString() },
    };
    await this.#save(this.#record);
    return { proceed: false, reason: detail };
  }

  #save(record: BudgetRecord): Promise<void> {
    const host = this.#host;
    return writeBudgetRecord(host.store, host.directory, record, host.write?.bind(host));
  }

  #check(record: BudgetRecord): BudgetStopFigures | undefined {
    const budgets = this.#budgets(record);
    if (budgets.length === 0) return undefined;
    const llm = this.#host.llm();
    const stats = this.#host.stats();
    return checkBudget({
      budgets,
      spend: spendOf(stats, llm),
      model: llm.model,
      modelPriceKnown: pricingOf(llm) !== undefined,
      modelFree: isFreeModel(llm),
      nextCallEstimateUsd: estimateNextCallUsd(llm, stats),
      unknownCostResponses: record.unknown_cost_responses,
    });
  }

  #budgets(record: BudgetRecord): ActiveBudget[] {
    const budgets: ActiveBudget[] = [];
    if (record.max_usd !== null) {
      budgets.push({
        scope: 'conversation',
        limitUsd: record.max_usd,
        baselineUsd: 0,
        allowUnknownCost: record.allow_unknown_cost,
      });
    }
    if (this.#run !== undefined) budgets.push(this.#run);
    return budgets;
  }

  async #load(fresh: boolean): Promise<BudgetRecord> {
    if (fresh || this.#record === undefined) {
      this.#record = await readBudgetRecord(this.#host.store, this.#host.directory);
    }
    return this.#record;
  }
}

function budgetOf(record: BudgetRecord): Budget | undefined {
  if (record.max_usd === null) return undefined;
  return { maxUsd: record.max_usd, allowUnknownCost: record.allow_unknown_cost };
}
