export { type RecordedRequest, recordedRequests } from './recorded-requests.js';
export { type ReplayDivergence, ReplayDivergenceError } from './replay-divergence-error.js';
export { createStrictReplay, type StrictReplay, type StrictReplayOptions } from './strict-replay.js';
export { DEFAULT_VOLATILE_PATTERNS, type VolatilePattern } from './volatile-text.js';
