export { EventsError } from './errors.js';
