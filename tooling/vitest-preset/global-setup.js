// Removes the run's temporary HOME (see test-home.js) once every test file of the run has finished.
import { rmSync } from 'node:fs';

export function setup() {
  return () => {
    const home = process.env.X_TEST_HOME;
    // Only the home this process made: a nested run leaves its parent's in place.
    if (home !== undefined && process.env.X_TEST_HOME_OWNER === String(process.pid) && !process.env.X_KEEP_TEST_HOME) {
      rmSync(home, { recursive: true, force: true, maxRetries: 5 });
    }
  };
}
