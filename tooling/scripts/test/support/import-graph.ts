// Builds a package's module graph from the relative imports of its `src/` files and finds the
// circles in it. TypeScript's own parser reads the imports, so specifiers inside comments or
// strings never count and `import type` is told apart from a runtime import.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ModuleImport {
  /** The importing file's path relative to the package root. */
  readonly from: string;
  /** The imported file's path relative to the package root. */
  readonly to: string;
  /** `import type` / `export type`, or every named binding marked `type`: erased when compiled. */
  readonly typeOnly: boolean;
}

const sourceExtensions = ['.ts', '.tsx', '.mts'];

function listSourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...listSourceFiles(path));
    else if (sourceExtensions.some((extension) => entry.endsWith(extension)) && !entry.endsWith('.d.ts')) {
      files.push(path);
    }
  }
  return files;
}

// NodeNext specifiers name the emitted `.js`; the source is the `.ts`/`.tsx` beside it, or a
// folder's index.
function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [
    base,
    ...sourceExtensions.map((extension) => `${stem}${extension}`),
    ...sourceExtensions.map((extension) => join(base, `index${extension}`)),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

function namedBindingsAllTypes(elements: readonly { isTypeOnly: boolean }[]): boolean {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly);
}

function importsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            namedBindingsAllTypes(bindings.elements)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (clause !== undefined && ts.isNamedExports(clause) && namedBindingsAllTypes(clause.elements));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every relative import between the package's `src/` files. */
export function readModuleImports(packageDir: string): ModuleImport[] {
  const srcDir = join(packageDir, 'src');
  if (!existsSync(srcDir)) return [];
  const imports: ModuleImport[] = [];
  for (const file of listSourceFiles(srcDir)) {
    for (const { specifier, typeOnly } of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveSpecifier(file, specifier);
      if (target === undefined) continue;
      imports.push({ from: relative(packageDir, file), to: relative(packageDir, target), typeOnly });
    }
  }
  return imports;
}

/**
 * The strongly connected components with more than one file (or a file importing itself), each
 * as its member files and one circle through all of them written `a → b → … → a`.
 */
export function findCircles(imports: readonly ModuleImport[]): { files: string[]; circle: string[] }[] {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)?.add(to);
    if (!edges.has(to)) edges.set(to, new Set());
  }
  // Tarjan's algorithm, iterative so deep graphs never hit the stack limit.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of [...edges.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; next: Iterator<string> }[] = [];
    const open = (node: string): void => {
      index.set(node, counter);
      low.set(node, counter);
      counter += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: [...(edges.get(node) ?? [])].sort()[Symbol.iterator]() });
    };
    open(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; next: Iterator<string> };
      const step = frame.next.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) open(target);
        else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && edges.get(frame.node)?.has(frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.map((files) => ({ files, circle: circleThrough(files, edges) }));
}

// The shortest way back to the first file, breadth first inside the component: short enough to
// read in a failure message, and it always exists because the component is strongly connected.
function circleThrough(files: string[], edges: Map<string, Set<string>>): string[] {
  const members = new Set(files);
  const first = files[0] as string;
  const previous = new Map<string, string>();
  const queue = [first];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const target of [...(edges.get(node) ?? [])].sort()) {
      if (!members.has(target)) continue;
      if (target === first) {
        const path = [node];
        let step = node;
        while (step !== first) {
          step = previous.get(step) as string;
          path.unshift(step);
        }
        return [...path, first];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [first, first];
}
