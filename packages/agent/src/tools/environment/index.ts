export {
  buildToolEnvironment,
  defaultInheritedVariables,
  isSensitiveVariableName,
  type ToolEnvironment,
  validateToolEnvironment,
} from './tool-environment.js';
export { ToolEnvironmentError } from './tool-environment-error.js';
