export { ServerError } from './errors.js';
