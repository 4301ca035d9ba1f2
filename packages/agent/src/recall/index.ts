export { InvalidRecallError } from './invalid-recall-error.js';
export { type RecallResult, recallFromHistory } from './recall-history.js';
export { DEFAULT_RECALL_LIMITS, type RecallLimits } from './recall-limits.js';
export { MAX_RECALL_RESULTS, type RecallParameters, recallParameters } from './recall-parameters.js';
export { createRecallTool, RECALL_TOOL_NAME, type RecallToolOptions, withRecallTool } from './recall-tool.js';
