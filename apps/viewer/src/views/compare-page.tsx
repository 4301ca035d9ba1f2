import { useEffect, useState } from 'preact/hooks';
import { request } from '../api/api-client.js';
import { formatCost } from './format.js';

interface Branch {
  conversation_id: string;
  actions: { event_id: string; tool_name: string; summary: string }[];
  observations: number;
  errors: number;
  responses: number;
  tokens: number;
  cost: number;
  status: string;
  final_message: string | null;
  files_changed: { added: string[]; modified: string[]; removed: string[] } | null;
}

interface Comparison {
  common_event_id: string | null;
  common_events: number;
  a: Branch;
  b: Branch;
  files_differing: string[] | null;
}

function Side({ branch, label }: { branch: Branch; label: string }) {
  const files = branch.files_changed;
  return (
    <section class="compare-side" data-testid={`compare-${label}`} aria-label={`Branch ${label}`}>
      <h2>
        <a href={`#/c/${encodeURIComponent(branch.conversation_id)}`}>{branch.conversation_id.slice(0, 8)}</a>
      </h2>
      <dl>
        <dt>Outcome</dt>
        <dd data-testid={`compare-${label}-status`}>{branch.status}</dd>
        <dt>Final message</dt>
        <dd data-testid={`compare-${label}-final`}>{branch.final_message ?? '—'}</dd>
        <dt>Cost</dt>
        <dd>
          {formatCost(branch.cost)} · {branch.tokens} tokens · {branch.responses} responses
        </dd>
        <dt>Observations / errors</dt>
        <dd>
          {branch.observations} / {branch.errors}
        </dd>
        {files === null ? null : (
          <>
            <dt>Files changed</dt>
            <dd>
              +{files.added.length} ~{files.modified.length} −{files.removed.length}
            </dd>
          </>
        )}
      </dl>
      <ol data-testid={`compare-${label}-actions`}>
        {branch.actions.map((action) => (
          <li key={action.event_id}>
            <code>{action.tool_name}</code> {action.summary}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * Two conversations' branches side by side after the events they share (a fork and its origin): actions,
 * outcome, cost and files, from `GET /api/conversations/{id}/compare/{other}` (what `x compare` prints).
 */
export function ComparePage({ id, otherId }: { id: string; otherId: string }) {
  const [comparison, setComparison] = useState<Comparison | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    request<Comparison>('GET', `/api/conversations/${id}/compare/${otherId}`)
      .then(setComparison)
      .catch((caught: unknown) => setError((caught as Error).message));
  }, [id, otherId]);
  if (error !== undefined) {
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  }
  if (comparison === undefined) return <p>Comparing…</p>;
  return (
    <main class="compare-page">
      <p>
        <a href="#/">All conversations</a> · shared: {comparison.common_events} events
        {comparison.files_differing === null
          ? ''
          : ` · files differing: ${comparison.files_differing.join(', ') || 'none'}`}
      </p>
      <div class="compare-columns">
        <Side branch={comparison.a} label="a" />
        <Side branch={comparison.b} label="b" />
      </div>
    </main>
  );
}
