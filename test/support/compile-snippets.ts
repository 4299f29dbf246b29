import { join } from 'node:path';

import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');

/**
 * Type-checks files of the repository as tsc would (tsconfig.json), with some files given in
 * memory: new snippets, or other contents for existing files. Returns each listed file's
 * diagnostics as `TS<code>: <message>`, keyed by path relative to the repository.
 * `check` names the files whose diagnostics are wanted (default: the in-memory ones).
 */
export function compileWith(files: Record<string, string>, check: string[] = Object.keys(files)): Map<string, string[]> {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const compilerOptions = { ...options, noEmit: true };
  const virtual = new Map(Object.entries(files).map(([path, code]) => [join(ROOT, path), code]));
  const host = ts.createCompilerHost(compilerOptions);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const code = virtual.get(fileName);
    return code !== undefined
      ? ts.createSourceFile(fileName, code, languageVersion, true)
      : getSourceFile(fileName, languageVersion, onError, shouldCreate);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => virtual.has(fileName) || fileExists(fileName);
  const readFile = host.readFile.bind(host);
  host.readFile = (fileName) => virtual.get(fileName) ?? readFile(fileName);
  const roots = [...new Set([...virtual.keys(), ...check.map((p) => join(ROOT, p))])];
  const program = ts.createProgram({ rootNames: roots, options: compilerOptions, host });
  const out = new Map<string, string[]>();
  for (const path of check) {
    const file = program.getSourceFile(join(ROOT, path));
    if (!file) throw new Error(`${path} was not compiled`);
    const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    out.set(
      path,
      diagnostics.map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`),
    );
  }
  return out;
}
