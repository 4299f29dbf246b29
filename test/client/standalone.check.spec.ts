import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import ts from 'typescript';

const SRC_DIR = join(__dirname, '../../src');
const CLIENT_DIR = join(SRC_DIR, 'client');
const CONTRACT_DIR = join(SRC_DIR, 'contract');
const tsFiles = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name));
const files = [...tsFiles(CLIENT_DIR), ...tsFiles(CONTRACT_DIR)];

/**
 * `atrium/client` ships on its own (browsers, Node >= 18): it must not reach into the server's
 * code, any package or a Node built-in. These checks keep that true as the code changes.
 */
describe('the client compiles on its own', () => {
  it('imports only sibling files of src/client and the wire types of src/contract (which import nothing)', () => {
    const offending: string[] = [];
    for (const file of files) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
      source.forEachChild((node) => {
        if (
          (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
          node.moduleSpecifier &&
          ts.isStringLiteral(node.moduleSpecifier)
        ) {
          const specifier = node.moduleSpecifier.text;
          const allowed = file.startsWith(CONTRACT_DIR) ? [] : [/^\.\/[\w.-]+$/, /^\.\.\/contract\/[\w.-]+$/];
          if (!allowed.some((pattern) => pattern.test(specifier))) offending.push(`${file}: ${specifier}`);
        }
      });
    }
    expect(offending).toEqual([]);
  });

  it('type-checks and emits declarations with only lib.dom (no @types/node) and rootDir src (src/client and src/contract)', () => {
    const emitted: string[] = [];
    const options: ts.CompilerOptions = {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      rootDir: SRC_DIR,
      outDir: '/virtual/dist/sdk',
      declaration: true,
      emitDeclarationOnly: true,
    };
    const host = ts.createCompilerHost(options);
    host.writeFile = (name) => emitted.push(name);
    const program = ts.createProgram([join(CLIENT_DIR, 'index.ts')], options, host);
    const result = program.emit();
    const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics].map((d) =>
      ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    );
    expect(diagnostics).toEqual([]);
    expect(emitted.map((name) => name.replace('/virtual/dist/sdk/', '')).sort()).toEqual(
      files.map((file) => file.slice(SRC_DIR.length + 1).replace(/\.ts$/, '.d.ts')).sort(),
    );
  });
});
