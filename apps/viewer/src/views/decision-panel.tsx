import { useEffect, useState } from 'preact/hooks';
import { api, type DecisionJson } from '../api/api-client.js';

/**
 * Deny-with-a-reason for the pending actions (the model sees the reason), and who decided what so far: the
 * conversation's decision records, refreshed as events arrive.
 */
export function DecisionPanel({
  id,
  waiting,
  eventCount,
  act,
  deny,
}: {
  id: string;
  waiting: boolean;
  eventCount: number;
  act(what: string, action: () => Promise<unknown>): Promise<void>;
  /** Rejects the pending actions with the reason, then runs on. */
  deny(reason: string): Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [decisions, setDecisions] = useState<DecisionJson[]>([]);
  useEffect(() => {
    let current = true;
    api.decisions(id).then(
      (answer) => current && setDecisions(answer.decisions),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [id, eventCount]);
  return (
    <>
      {waiting ? (
        <form
          class="confirm deny"
          aria-label="Deny with a reason"
          onSubmit={(event) => {
            event.preventDefault();
            const text = reason.trim();
            if (text === '') return;
            void act('Deny', async () => {
              await deny(text);
              setReason('');
            });
          }}
        >
          <input
            type="text"
            placeholder="Reason the agent sees"
            aria-label="Reason"
            value={reason}
            onInput={(event) => setReason((event.target as HTMLInputElement).value)}
          />
          <button type="submit" class="reject">
            Deny with reason
          </button>
        </form>
      ) : null}
      {decisions.length === 0 ? null : (
        <section class="decisions" aria-label="Decisions">
          <ul>
            {decisions.map((record) => (
              <li key={record.action_id}>
                {record.tool_name}: {record.decision.kind}
                {record.decision.reason === undefined ? '' : ` (${record.decision.reason})`} by {record.principal} at{' '}
                {new Date(record.decided_at).toLocaleString()}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
