import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * `no-import-cycle`: a file may not import, directly or through other files, a file that imports
 * it back. Only imports that stay at run time count (an `import type`, or named imports that are
 * all `type`, are erased and cannot loop at start-up), as in eslint-plugin-import's `no-cycle`;
 * dynamic `import()` counts. Only relative imports are followed, and only to files under `root`
 * (the rule's option, relative to the working directory). The files the linted one reaches are
 * read from disk; the linted file itself from the text being linted, so a planted import is
 * caught before it is saved.
 */

const EXTENSIONS = ['.ts', '.tsx'];

function resolveFrom(fromFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [
    ...EXTENSIONS.map((ext) => base + ext),
    base,
    ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`)),
  ];
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
}

const allTypeOnly = (elements) => elements.length > 0 && elements.every((element) => element.isTypeOnly);

/** The run-time imports a file's text names (TypeScript's parser: the other files are not linted). */
function runtimeSpecifiers(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const specifiers = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings)
          ? allTypeOnly(clause.namedBindings.elements)
          : false);
      if (!typeOnly) specifiers.push(statement.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const clause = statement.exportClause;
      const typeOnly =
        statement.isTypeOnly || (clause && ts.isNamedExports(clause) ? allTypeOnly(clause.elements) : false);
      if (!typeOnly) specifiers.push(statement.moduleSpecifier.text);
    }
  }
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return specifiers;
}

/** A file's run-time imports under the root, read from disk once per change of the file. */
const onDisk = new Map();
function importsOnDisk(file, root) {
  const mtime = fs.statSync(file).mtimeMs;
  const known = onDisk.get(file);
  if (known && known.mtime === mtime && known.root === root) return known.imports;
  const imports = runtimeSpecifiers(file, fs.readFileSync(file, 'utf8'))
    .map((specifier) => resolveFrom(file, specifier))
    .filter((target) => target && target.startsWith(root + path.sep));
  onDisk.set(file, { mtime, root, imports });
  return imports;
}

/** A path of files from `start` back to `target` (both ends included), or undefined. */
function pathBack(start, target, root) {
  const seen = new Set([start]);
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of importsOnDisk(file, root)) {
      if (next === target) {
        const chain = [file];
        while (previous.has(chain[0])) chain.unshift(previous.get(chain[0]));
        return [...chain, target];
      }
      if (seen.has(next)) continue;
      seen.add(next);
      previous.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

/** Whether an import or export node of the linted file's AST is erased at run time. */
function isTypeOnlyNode(node) {
  if (node.type === 'ImportDeclaration') {
    if (node.importKind === 'type') return true;
    return (
      node.specifiers.length > 0 &&
      node.specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type')
    );
  }
  if (node.exportKind === 'type') return true;
  return (
    node.type === 'ExportNamedDeclaration' &&
    node.specifiers.length > 0 &&
    node.specifiers.every((s) => s.exportKind === 'type')
  );
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow run-time import cycles between the files under a folder' },
    schema: [
      { type: 'object', properties: { root: { type: 'string' } }, required: ['root'], additionalProperties: false },
    ],
    messages: {
      cycle:
        'Import cycle: {{chain}}. Move what both sides need to a lower floor (lib/, db/, context.ts) or pass it in.',
    },
  },
  create(context) {
    const root = path.resolve(context.cwd, context.options[0].root);
    const file = path.resolve(context.cwd, context.filename);
    if (!file.startsWith(root + path.sep)) return {};
    const relative = (f) => path.relative(context.cwd, f);

    function check(node, sourceNode) {
      if (!sourceNode || sourceNode.type !== 'Literal' || typeof sourceNode.value !== 'string') return;
      const target = resolveFrom(file, sourceNode.value);
      if (!target || !target.startsWith(root + path.sep)) return;
      const chain = target === file ? [file] : pathBack(target, file, root);
      if (!chain) return;
      context.report({ node, messageId: 'cycle', data: { chain: [file, ...chain].map(relative).join(' -> ') } });
    }

    return {
      ImportDeclaration(node) {
        if (!isTypeOnlyNode(node)) check(node, node.source);
      },
      ExportNamedDeclaration(node) {
        if (node.source && !isTypeOnlyNode(node)) check(node, node.source);
      },
      ExportAllDeclaration(node) {
        if (!isTypeOnlyNode(node)) check(node, node.source);
      },
      ImportExpression(node) {
        check(node, node.source);
      },
    };
  },
};

export default { rules: { 'no-import-cycle': noImportCycle } };
