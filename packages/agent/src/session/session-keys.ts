/**
 * The state-update keys of orxhestra's `state_delta` and `artifact_delta`, recorded as
 * ConversationStateUpdateEvents (a kind the reference knows; it accepts any key), so conversations that use
 * them stay readable, and continuable, by the reference.
 */
export const STATE_DELTA_KEY = 'state_delta';
export const ARTIFACT_DELTA_KEY = 'artifact_delta';

/** The one key a state or artifact delta cannot have: a JSON object's `__proto__` is its prototype to JavaScript. */
export const RESERVED_KEY = '__proto__';

/** A change of the session state: each key set to its value; `null` removes the key. */
export type SessionStateDelta = Readonly<Record<string, unknown>>;

/** The session state after `delta` (a new object; `null` values remove their keys). */
export function applySessionStateDelta(
  state: Readonly<Record<string, unknown>> | undefined,
  delta: SessionStateDelta,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...state };
  for (const [key, value] of Object.entries(delta)) {
    // Assigning `__proto__` would set the state's prototype (and a resume from base_state.json drops the key).
    if (key === RESERVED_KEY) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** The latest version of each artifact after `delta` (`{name: version}`); versions only grow. */
export function applyArtifactDelta(
  artifacts: Readonly<Record<string, number>> | undefined,
  delta: Readonly<Record<string, unknown>>,
): Record<string, number> {
  const next: Record<string, number> = { ...artifacts };
  for (const [name, version] of Object.entries(delta)) {
    if (name === RESERVED_KEY) continue;
    if (typeof version === 'number' && Number.isInteger(version) && version > (ownValue(next, name) ?? 0)) {
      next[name] = version;
    }
  }
  return next;
}

/**
 * `record[key]` when `record` has it as its own key: a name like `constructor` or `toString` would otherwise read
 * the Object member of that name.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
