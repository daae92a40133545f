import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * A form checks through its contract schema and shows the contract's messages (issue 42): no
 * validation message is copied into the client by hand, where it would drift from the server's.
 * A contract message is a string handed to a call (`.min(1, '…')`, `optionalText(500, '…')`),
 * given as a `message`/`error`, or exported as a constant (`SIGNATURE_REQUIRED = '…'`). The
 * client may import those; it may not write one out again. Shown refusing planted copies, and
 * the tree as it is passes.
 */

const ROOT = process.cwd();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function parse(file: string, code: string) {
  return ts.createSourceFile(
    file,
    code,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
}

const isText = (node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral =>
  ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);

/** A message is words, not a key or a path: it has a space in it. */
const isMessage = (text: string) => /\S\s+\S/.test(text);

/** The messages a contract file gives its checks. */
export function contractMessages(file: string, code: string): string[] {
  const source = parse(file, code);
  // A local helper may take a label, not a message (integrations.ts' optionalText(255, 'SMTP host')):
  // only zod's methods and the helpers a file imports (common.ts' optionalText) take messages.
  const imported = new Set(
    source.statements.filter(ts.isImportDeclaration).flatMap((d) => {
      const bindings = d.importClause?.namedBindings;
      return bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => e.name.text) : [];
    }),
  );
  const takesMessages = (call: ts.CallExpression) =>
    ts.isPropertyAccessExpression(call.expression) ||
    (ts.isIdentifier(call.expression) && imported.has(call.expression.text));
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (isText(node) && isMessage(node.text)) {
      const parent = node.parent;
      const given =
        (ts.isCallExpression(parent) && parent.arguments.includes(node as ts.Expression) && takesMessages(parent)) ||
        (ts.isPropertyAssignment(parent) &&
          parent.initializer === node &&
          ['message', 'error'].includes(parent.name.getText())) ||
        (ts.isVariableDeclaration(parent) &&
          parent.initializer === node &&
          /^[A-Z][A-Z0-9_]*$/.test(parent.name.getText()) &&
          ts.getCombinedModifierFlags(parent) & ts.ModifierFlags.Export) ||
        // `export const X = 'a' + 'b'`: a long message written on two lines
        (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken);
      if (given) found.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The string literals of a client file that are one of `messages`, with their line. */
export function copiedMessages(file: string, code: string, messages: ReadonlySet<string>): string[] {
  const source = parse(file, code);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (isText(node) && messages.has(node.text)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${path.relative(ROOT, file)}:${line} "${node.text}"`);
    }
    // JSX text (<p>Name is required</p>) is a literal too
    if (ts.isJsxText(node) && messages.has(node.text.trim())) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${path.relative(ROOT, file)}:${line} "${node.text.trim()}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const contract = new Set(
  sourceFiles(path.join(ROOT, 'src/contract')).flatMap((file) => contractMessages(file, readFileSync(file, 'utf8'))),
);

describe('contract messages copied into the client', () => {
  it('are collected from the checks, the messages and the exported constants of src/contract', () => {
    expect(contract).toContain('Collector name is required');
    expect(contract).toContain('A signature is required for every hand-over');
    expect(contract).toContain('Name is required');
    expect(contract).toContain('Value already exists');
    // a key, an enum value or a label given to a local helper is not a message
    expect(contract).not.toContain('pickup_code');
    expect(contract).not.toContain('SMTP host');
  });

  it.each([
    ['a string', "const e = 'Collector name is required';"],
    ['a template without substitutions', 'const e = `A signature is required for every hand-over`;'],
    ['JSX text', 'export const E = () => <p>Collector name is required</p>;'],
  ])('are refused as %s', (_, code) => {
    expect(copiedMessages('src/client/planted.tsx', code, contract)).toHaveLength(1);
  });

  it('may be imported and shown', () => {
    const code = "import { SIGNATURE_REQUIRED } from '@contract';\nexport const e = SIGNATURE_REQUIRED;\n";
    expect(copiedMessages('src/client/planted.tsx', code, contract)).toEqual([]);
  });

  it('are written nowhere in src/client', () => {
    const copies = sourceFiles(path.join(ROOT, 'src/client')).flatMap((file) =>
      copiedMessages(file, readFileSync(file, 'utf8'), contract),
    );
    expect(copies).toEqual([]);
  });
});
