import { PatchError } from './patch-error.js';

/**
 * The `*** Begin Patch` … `*** End Patch` format of OpenAI's apply_patch (the reference's `apply_patch/core.py`,
 * itself the OpenAI cookbook's implementation), ported line for line so that a patch applies here exactly as it
 * does there, fuzz included.
 */
export type PatchActionType = 'add' | 'delete' | 'update';

interface Chunk {
  /** Line index of the first line in the original file. */
  origIndex: number;
  delLines: string[];
  insLines: string[];
}

export interface PatchAction {
  type: PatchActionType;
  newFile?: string;
  chunks: Chunk[];
  movePath?: string;
}

/** The parsed patch: one action per path, in the patch's order; `fuzz` counts inexact context matches. */
export interface ParsedPatch {
  actions: Map<string, PatchAction>;
  fuzz: number;
}

const sectionEnds = ['*** End Patch', '*** Update File:', '*** Delete File:', '*** Add File:', '*** End of File'];

/** The paths whose current content the patch needs (updated and deleted files). */
export function filesNeeded(text: string): string[] {
  const needed = new Set<string>();
  for (const line of text.trim().split('\n')) {
    if (line.startsWith('*** Update File: ')) needed.add(line.slice('*** Update File: '.length));
    if (line.startsWith('*** Delete File: ')) needed.add(line.slice('*** Delete File: '.length));
  }
  return [...needed];
}

/** Parses `text` against the current content of the files it needs (`filesNeeded`). */
export function parsePatch(text: string, current: ReadonlyMap<string, string>): ParsedPatch {
  const lines = text.trim().split('\n');
  if (lines.length < 2 || !lines[0]?.startsWith('*** Begin Patch') || lines[lines.length - 1] !== '*** End Patch') {
    throw new PatchError('Invalid patch text');
  }
  return new Parser(lines, current).parse();
}

class Parser {
  index = 1;
  fuzz = 0;
  readonly actions = new Map<string, PatchAction>();

  constructor(
    readonly lines: string[],
    readonly current: ReadonlyMap<string, string>,
  ) {}

  isDone(prefixes?: readonly string[]): boolean {
    if (this.index >= this.lines.length) return true;
    return prefixes?.some((prefix) => this.lines[this.index]?.startsWith(prefix)) === true;
  }

  readStr(prefix = ''): string {
    if (this.index >= this.lines.length) throw new PatchError(`Unexpected end of patch at index ${this.index}`);
    const line = this.lines[this.index] as string;
    if (!line.startsWith(prefix)) return '';
    this.index += 1;
    return line.slice(prefix.length);
  }

  parse(): ParsedPatch {
    while (!this.isDone(['*** End Patch'])) {
      let path = this.readStr('*** Update File: ');
      if (path) {
        if (this.actions.has(path)) throw new PatchError(`Update File Error: Duplicate Path: ${path}`);
        const moveTo = this.readStr('*** Move to: ');
        if (moveTo && (moveTo.split('/').includes('..') || moveTo.startsWith('/'))) {
          throw new PatchError(
            `Update File Error: Invalid move path '${moveTo}': must be a relative path without '..' components`,
          );
        }
        const text = this.current.get(path);
        if (text === undefined) throw new PatchError(`Update File Error: Missing File: ${path}`);
        const action = this.parseUpdateFile(text);
        if (moveTo) action.movePath = moveTo;
        this.actions.set(path, action);
        continue;
      }
      path = this.readStr('*** Delete File: ');
      if (path) {
        if (this.actions.has(path)) throw new PatchError(`Delete File Error: Duplicate Path: ${path}`);
        if (!this.current.has(path)) throw new PatchError(`Delete File Error: Missing File: ${path}`);
        this.actions.set(path, { type: 'delete', chunks: [] });
        continue;
      }
      path = this.readStr('*** Add File: ');
      if (path) {
        if (this.actions.has(path)) throw new PatchError(`Add File Error: Duplicate Path: ${path}`);
        this.actions.set(path, this.parseAddFile());
        continue;
      }
      throw new PatchError(`Unknown Line: ${this.lines[this.index]}`);
    }
    if (!this.lines[this.index]?.startsWith('*** End Patch')) throw new PatchError('Missing End Patch');
    this.index += 1;
    return { actions: this.actions, fuzz: this.fuzz };
  }

  parseUpdateFile(text: string): PatchAction {
    const action: PatchAction = { type: 'update', chunks: [] };
    const lines = text.split('\n');
    let index = 0;
    while (!this.isDone(sectionEnds)) {
      const defStr = this.readStr('@@ ');
      let sectionStr = '';
      if (!defStr && this.lines[this.index] === '@@') {
        sectionStr = this.lines[this.index] as string;
        this.index += 1;
      }
      if (!(defStr || sectionStr || index === 0)) throw new PatchError(`Invalid Line:\n${this.lines[this.index]}`);
      if (defStr.trim()) {
        let found = false;
        if (!lines.slice(0, index).some((line) => line === defStr)) {
          for (let i = index; i < lines.length; i++) {
            if (lines[i] === defStr) {
              index = i + 1;
              found = true;
              break;
            }
          }
        }
        if (!found && !lines.slice(0, index).some((line) => line.trim() === defStr.trim())) {
          for (let i = index; i < lines.length; i++) {
            if ((lines[i] as string).trim() === defStr.trim()) {
              index = i + 1;
              this.fuzz += 1;
              found = true;
              break;
            }
          }
        }
      }
      const next = peekNextSection(this.lines, this.index);
      const [newIndex, fuzz] = findContext(lines, next.context, index, next.eof);
      if (newIndex === -1) {
        const contextText = next.context.join('\n');
        throw new PatchError(
          next.eof ? `Invalid EOF Context ${index}:\n${contextText}` : `Invalid Context ${index}:\n${contextText}`,
        );
      }
      this.fuzz += fuzz;
      for (const chunk of next.chunks) {
        chunk.origIndex += newIndex;
        action.chunks.push(chunk);
      }
      index = newIndex + next.context.length;
      this.index = next.endIndex;
    }
    return action;
  }

  parseAddFile(): PatchAction {
    const lines: string[] = [];
    while (!this.isDone(['*** End Patch', '*** Update File:', '*** Delete File:', '*** Add File:'])) {
      const line = this.readStr();
      if (!line.startsWith('+')) throw new PatchError(`Invalid Add File Line: ${line}`);
      lines.push(line.slice(1));
    }
    return { type: 'add', newFile: lines.join('\n'), chunks: [] };
  }
}

function linesEqual(a: readonly string[], b: readonly string[], normalise: (line: string) => string): boolean {
  if (a.length !== b.length) return false;
  return a.every((line, i) => normalise(line) === normalise(b[i] as string));
}

function findContextCore(lines: readonly string[], context: readonly string[], start: number): [number, number] {
  if (context.length === 0) return [start, 0];
  const passes: [(line: string) => string, number][] = [
    [(line) => line, 0],
    [(line) => line.trimEnd(), 1],
    [(line) => line.trim(), 100],
  ];
  for (const [normalise, fuzz] of passes) {
    // As Python's range(start, len(lines)) with a slice: a window past the end is shorter and never equal.
    for (let i = Math.max(start, 0); i < lines.length; i++) {
      if (linesEqual(lines.slice(i, i + context.length), context, normalise)) return [i, fuzz];
    }
  }
  return [-1, 0];
}

function findContext(
  lines: readonly string[],
  context: readonly string[],
  start: number,
  eof: boolean,
): [number, number] {
  if (eof) {
    const [atEnd, fuzz] = findContextCore(lines, context, pythonStart(lines.length - context.length, lines.length));
    if (atEnd !== -1) return [atEnd, fuzz];
    const [anywhere, fuzzAnywhere] = findContextCore(lines, context, start);
    return [anywhere, fuzzAnywhere + 10000];
  }
  return findContextCore(lines, context, start);
}

/** Python's `range(start, n)` with a negative start counts from the end. */
function pythonStart(start: number, length: number): number {
  return start < 0 ? Math.max(length + start, 0) : start;
}

type SectionMode = 'keep' | 'add' | 'delete';

function peekNextSection(
  lines: readonly string[],
  start: number,
): { context: string[]; chunks: Chunk[]; endIndex: number; eof: boolean } {
  const old: string[] = [];
  let delLines: string[] = [];
  let insLines: string[] = [];
  const chunks: Chunk[] = [];
  let mode: SectionMode = 'keep' as SectionMode;
  let index = start;
  while (index < lines.length) {
    let line = lines[index] as string;
    if (['@@', ...sectionEnds].some((prefix) => line.startsWith(prefix))) break;
    if (line === '***') break;
    if (line.startsWith('***')) throw new PatchError(`Invalid Line: ${line}`);
    index += 1;
    const lastMode: SectionMode = mode;
    if (line === '') line = ' ';
    if (line[0] === '+') mode = 'add';
    else if (line[0] === '-') mode = 'delete';
    else if (line[0] === ' ') mode = 'keep';
    else throw new PatchError(`Invalid Line: ${line}`);
    line = line.slice(1);
    if (mode === 'keep' && lastMode !== mode) {
      if (insLines.length > 0 || delLines.length > 0) {
        chunks.push({ origIndex: old.length - delLines.length, delLines, insLines });
      }
      delLines = [];
      insLines = [];
    }
    if (mode === 'delete') {
      delLines.push(line);
      old.push(line);
    } else if (mode === 'add') {
      insLines.push(line);
    } else {
      old.push(line);
    }
  }
  if (insLines.length > 0 || delLines.length > 0) {
    chunks.push({ origIndex: old.length - delLines.length, delLines, insLines });
  }
  if (index < lines.length && lines[index] === '*** End of File') {
    return { context: old, chunks, endIndex: index + 1, eof: true };
  }
  if (index === start) throw new PatchError(`Nothing in this section - index=${index} ${lines[index]}`);
  return { context: old, chunks, endIndex: index, eof: false };
}

/** The new content of an updated file (the reference's `_get_updated_file`). */
export function updatedContent(text: string, action: PatchAction, path: string): string {
  const origLines = text.split('\n');
  const destLines: string[] = [];
  let origIndex = 0;
  for (const chunk of action.chunks) {
    if (chunk.origIndex > origLines.length) {
      throw new PatchError(
        `_get_updated_file: ${path}: chunk.orig_index ${chunk.origIndex} > len(lines) ${origLines.length}`,
      );
    }
    if (origIndex > chunk.origIndex) {
      throw new PatchError(`_get_updated_file: ${path}: orig_index ${origIndex} > chunk.orig_index ${chunk.origIndex}`);
    }
    destLines.push(...origLines.slice(origIndex, chunk.origIndex));
    origIndex = chunk.origIndex;
    destLines.push(...chunk.insLines);
    origIndex += chunk.delLines.length;
  }
  destLines.push(...origLines.slice(origIndex));
  return destLines.join('\n');
}
