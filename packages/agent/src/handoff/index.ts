export { AgentRoster, type AgentRosterOptions } from './agent-roster.js';
export { ESCALATE_TOOL_NAME, escalateTool } from './escalate-tool.js';
export { InvalidAgentRosterError } from './invalid-agent-roster-error.js';
export { createTransferTool, TRANSFER_TOOL_NAME, type TransferTarget } from './transfer-tool.js';
export { UnknownAgentError } from './unknown-agent-error.js';
