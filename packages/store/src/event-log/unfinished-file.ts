/**
 * Whether `bytes` is what a crash or power loss can leave of a file whose content was meant to be `intended`:
 * empty, cut short, or cut short with its tail zero-filled (the file's size reached the disk before its
 * data). That is a strict prefix of `intended`, once trailing NUL bytes are dropped; event JSON never
 * contains NUL. A file holding anything else (other content, or more) is not unfinished but different.
 *
 * An event file is written without fsync when its slot claim (which holds the same bytes) is what the append
 * waits for, so after a power loss it can be in that state: readers then serve the event from its claim and
 * rewrite the file, and `verifyEventChain` checks the event from the claim (see the README, "Durability").
 */
export function isUnfinishedCopy(bytes: Uint8Array, intended: Uint8Array): boolean {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  if (end >= intended.length) return false;
  for (let i = 0; i < end; i++) if (bytes[i] !== intended[i]) return false;
  return true;
}
