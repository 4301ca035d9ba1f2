export { CliError } from './errors.js';
