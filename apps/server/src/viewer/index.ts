export { registerViewerRoutes, VIEWER_CSP } from './serve-viewer.js';
