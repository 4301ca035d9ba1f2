import { useEffect, useState } from 'preact/hooks';
import { request } from '../api/api-client.js';
import type { ConversationInfo } from '../api/types.js';

interface Session {
  state: Record<string, unknown>;
  artifacts: Record<string, number>;
}

/**
 * The conversation's session state (orxhestra's `state_delta`) and artifacts with their latest versions, read from
 * `GET /api/conversations/{id}/session` (the whole fold, not only the events on screen); hidden while both are
 * empty.
 */
export function SessionPanel({ conversationId, info }: { conversationId: string; info: ConversationInfo | undefined }) {
  const [session, setSession] = useState<Session | undefined>(undefined);
  // The event stream sets each state update's key on `info`: a new state or artifact delta refetches.
  const stateDelta = info?.state_delta;
  const artifactDelta = info?.artifact_delta;
  useEffect(() => {
    let current = true;
    request<Session>('GET', `/api/conversations/${conversationId}/session`)
      .then((value) => {
        if (current) setSession(value);
      })
      .catch(() => {
        if (current) setSession(undefined);
      });
    return () => {
      current = false;
    };
  }, [conversationId, stateDelta, artifactDelta]);
  if (session === undefined) return null;
  const keys = Object.keys(session.state);
  const artifacts = Object.entries(session.artifacts);
  if (keys.length === 0 && artifacts.length === 0) return null;
  return (
    <section class="session-panel" data-testid="session-panel" aria-label="Session state and artifacts">
      {keys.length === 0 ? null : (
        <dl>
          {keys.map((key) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>
                <code>{JSON.stringify(session.state[key])}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {artifacts.length === 0 ? null : (
        <p>
          Artifacts:{' '}
          {artifacts.map(([name, version], index) => (
            <span key={name}>
              {index === 0 ? '' : ', '}
              <code>{name}</code> v{version}
            </span>
          ))}
        </p>
      )}
    </section>
  );
}
