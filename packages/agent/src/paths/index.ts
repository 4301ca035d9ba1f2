export { type ConfinedPath, confineToRoots, isPathInside, resolveRealLocation } from './confine-to-roots.js';
