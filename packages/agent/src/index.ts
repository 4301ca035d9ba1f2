export { AgentError } from './errors.js';
