export {
  AG_UI_PROTOCOL_VERSION,
  type AgUiEvent,
  type AgUiInterrupt,
  type AgUiRunOutcome,
  agUiEventsOf,
  sseFrames,
} from './agui-events.js';
export { AG_UI_PATH, type AgUiRoutesOptions, registerAgUiRoutes } from './agui-routes.js';
export { type AgUiResumeEntry, type AgUiRunInput, agUiRunInputSchema } from './run-input.js';
