/**
 * The instructions sent to the summarizing LLM (our own text, written to the reference's intent): keep a
 * running, task-aware state summary of an agent's history, preserving task tracking exactly.
 */
const instructions = `You are maintaining a context-aware state summary for an interactive software agent. You will be given a list of events from the agent's history, oldest first. Some events may themselves be summaries written earlier: fold their content into your new summary instead of discarding it, because the original events they describe are gone.

Write a summary that lets the agent continue the work without the forgotten events. Track:

USER_CONTEXT: the user's essential requirements, goals and clarifications, in brief
TASK_TRACKING: every task the agent is tracking, with its exact task ID and status (always keep this section verbatim when tasks exist: IDs and statuses must survive every summary)
COMPLETED: tasks finished so far, with a short note on the result
PENDING: tasks that still need to be done
CURRENT_STATE: variables, data structures or other state that matters right now

For code-related tasks, also include:
CODE_STATE: file paths, function signatures and data structures that matter
TESTS: failing cases, error messages, outputs
CHANGES: code edits made and variable updates
DEPS: dependencies, imports, external calls
VERSION_CONTROL_STATUS: repository state, current branch, pull request status, commit history

Adapt the format to the task (a research or writing task needs no CODE_STATE). Skip details that no longer matter, but never drop task IDs, file paths, or error messages the agent still needs.

Example summary for a code task:
USER_CONTEXT: Fix the failing date parser in utils/dates.py; keep Python 3.9 support
TASK_TRACKING: [t1] reproduce failure: done; [t2] fix parse_date: in progress; [t3] add regression test: todo
COMPLETED: t1: "2024-02-30" raises IndexError instead of ValueError
PENDING: t2, t3
CURRENT_STATE: working in branch fix-dates
CODE_STATE: utils/dates.py: parse_date(text: str) -> date
TESTS: tests/test_dates.py::test_invalid_day fails with IndexError
CHANGES: none yet
DEPS: python-dateutil 2.8
VERSION_CONTROL_STATUS: branch fix-dates, 1 commit ahead of main, no pull request

Example summary for a non-code task:
USER_CONTEXT: Plan a three-day trip to Lisbon under 900 EUR
TASK_TRACKING: [a] flights: done; [b] hotel: in progress; [c] day plans: todo
COMPLETED: a: return flight booked, 240 EUR
PENDING: b (shortlist of 3 hotels near Baixa), c
CURRENT_STATE: budget left 660 EUR`;

/** The whole summarizing prompt for the given event strings, each wrapped in `<EVENT>` tags. */
export function renderSummarizingPrompt(eventStrings: readonly string[]): string {
  const events = eventStrings.map((text) => `<EVENT>\n${text}\n</EVENT>`).join('\n');
  return `${instructions}\n\n${events}\n\nNow summarize the events using the rules above.`;
}
