// x_budget.json as read back: a missing file is "no budget", a damaged one is refused with an error that says
// which file and which field, so an operator can repair it (a limit must not vanish with a bad write).
import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { BUDGET_FILE, emptyBudgetRecord, readBudgetRecord, writeBudgetRecord } from './budget-record.js';
import { InvalidBudgetError } from './invalid-budget-error.js';

const directory = 'conversations/c1';

async function readingFails(text: string): Promise<InvalidBudgetError> {
  const store = createMemoryFileStore();
  await store.write(`${directory}/${BUDGET_FILE}`, text);
  const error = await readBudgetRecord(store, directory).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(InvalidBudgetError.isInstance(error)).toBe(true);
  return error as InvalidBudgetError;
}

describe('readBudgetRecord', () => {
  it('reads no budget from a directory without the file, and back what was written', async () => {
    const store = createMemoryFileStore();
    expect(await readBudgetRecord(store, directory)).toEqual(emptyBudgetRecord());
    const record = { ...emptyBudgetRecord(), max_usd: 2.5, allow_unknown_cost: true, unknown_cost_responses: ['r1'] };
    await writeBudgetRecord(store, directory, record);
    expect(await readBudgetRecord(store, directory)).toEqual(record);
  });

  it('refuses a file that is not JSON, naming the file', async () => {
    const error = await readingFails('{"version": 1,');
    expect(error.message).toContain(BUDGET_FILE);
    expect(error.message).toContain('is not JSON');
  });

  it('names the field that is wrong, among several right ones', async () => {
    const good = { ...emptyBudgetRecord(), max_usd: 1 };
    const error = await readingFails(JSON.stringify({ ...good, max_usd: -3 }));
    expect(error.message).toMatch(new RegExp(`${BUDGET_FILE} does not parse: max_usd: .*>=0`));

    const nested = await readingFails(JSON.stringify({ ...good, unknown_cost_responses: ['r1', 7] }));
    expect(nested.message).toMatch(/does not parse: unknown_cost_responses\.1: .*string/);
  });

  it('gives the first problem of a file with several', async () => {
    const error = await readingFails(JSON.stringify({ version: 1, max_usd: 'lots', allow_unknown_cost: 'no' }));
    expect(error.message).toMatch(/does not parse: max_usd: /);
  });
});
