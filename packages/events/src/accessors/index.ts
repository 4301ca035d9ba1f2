export { type EventError, getEventError } from './event-error.js';
export { getEventText, getEventThinking } from './event-text.js';
export { getEventToolCalls, isFinalResponse } from './event-tool-calls.js';
export { contentText, observationText } from './observation-text.js';
export { toolNameFromToolKind } from './tool-name.js';
