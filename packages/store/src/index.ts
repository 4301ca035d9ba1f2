export { StoreError } from './errors.js';
