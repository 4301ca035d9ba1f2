import type { AnyEvent } from '@x/events';
import { StoreError } from '../errors.js';

/** One entry of `EventLog.rangeSettled`: the event at `index`, or why its file could not be read. */
export type SettledEntry =
  | { readonly index: number; readonly event: AnyEvent; readonly error?: undefined }
  | { readonly index: number; readonly event?: undefined; readonly error: StoreError; readonly location: string };

/** The outcome of reading the event at `index`; a StoreError is kept as the entry, anything else rejects. */
export function settle(index: number, read: Promise<AnyEvent>, describe: () => string): Promise<SettledEntry> {
  return read.then(
    (event): SettledEntry => ({ index, event }),
    (error: unknown): SettledEntry => {
      if (!StoreError.isInstance(error)) throw error;
      return { index, error, location: describe() };
    },
  );
}
