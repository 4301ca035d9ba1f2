import { AgentError } from '../../errors.js';

/** Where a replayed request first differs from the recorded one. */
export interface ReplayDivergence {
  /** 0-based number of the LLM request. */
  readonly requestIndex: number;
  /** The recorded response this request should have been answered with. */
  readonly responseId: string | undefined;
  /** JSON path of the first difference, e.g. `messages[0].content[0].text` or `tools.length`. */
  readonly path: string;
  /** The recorded and replayed values at `path` (undefined where one side has nothing). */
  readonly recorded: unknown;
  readonly replayed: unknown;
  /** A readable diff: the path, then `-` recorded / `+` replayed lines around the first differing line. */
  readonly diff: string;
}

/** A strict replay diverged: the agent asked the model something other than what was recorded. */
export class ReplayDivergenceError extends AgentError {
  declare readonly code: 'replay_divergence';
  readonly divergence: ReplayDivergence;

  constructor(divergence: ReplayDivergence) {
    super(
      'replay_divergence',
      `Replay diverged from the recording at request ${divergence.requestIndex}:\n${divergence.diff}`,
    );
    this.divergence = divergence;
  }
}
