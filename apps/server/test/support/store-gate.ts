import type { FileStore } from '@x/store';

/**
 * A store whose reads or writes (`kind`) of paths `matching` wait, once `hold()` was called, until `release()`;
 * `held()` counts the calls that waited.
 */
export function storeGate(
  store: FileStore,
  kind: 'read' | 'write',
  matching: (path: string) => boolean,
): { store: FileStore; hold(): void; release(): void; held(): number } {
  let gate: Promise<void> | undefined;
  let open: () => void = () => undefined;
  let held = 0;
  const gated = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof property !== 'string' || !property.startsWith(kind)) return method.bind(target);
      return async (...args: unknown[]) => {
        const first = args[0];
        const paths = Array.isArray(first) ? first.map((file: { path: string }) => file.path) : [String(first)];
        if (gate !== undefined && paths.some(matching)) {
          held += 1;
          await gate;
        }
        return method.apply(target, args);
      };
    },
  });
  return {
    store: gated,
    hold() {
      // Held already: the calls waiting keep waiting for the same release.
      if (gate !== undefined) return;
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release() {
      gate = undefined;
      open();
    },
    held: () => held,
  };
}
