// Checks an esbuild metafile for what makes a bundle behave differently from the source it was built from. The
// tests run the TypeScript source under Node; users run the bundle. Two classes of difference have bitten:
//  - a dynamic import() of a CommonJS module: Node gives it named exports (detected from its text), a split esbuild
//    bundle gives it only `default`, so `(await import('yaml')).parse` was undefined in the shipped hcp only;
//  - a module left outside the bundle: it loads from node_modules in a checkout and is missing wherever the bundle
//    ships alone (the operator's image).
// Either fails the build, naming the importer and the fix.
import { builtinModules } from 'node:module';

/** The parts of esbuild's metafile the audit reads. */
export interface Metafile {
  readonly inputs: Readonly<Record<string, { readonly format?: 'cjs' | 'esm'; readonly imports: readonly MetaImport[] }>>;
}

interface MetaImport {
  readonly path: string;
  readonly kind: string;
  readonly external?: boolean;
}

/**
 * Optional dependencies that their importers load inside try/catch and do without (so esbuild leaves them out):
 * `ws` uses bufferutil and utf-8-validate as native speed-ups, `debug` uses supports-color for colours.
 */
export const OPTIONAL_EXTERNALS: ReadonlySet<string> = new Set(['bufferutil', 'utf-8-validate', 'supports-color']);

const BUILTINS: ReadonlySet<string> = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isBuiltin = (path: string): boolean => BUILTINS.has(path) || path.startsWith('node:');

/** What is wrong with one import of one module, if anything. */
function problemOf(name: string, importer: string, imp: MetaImport, inputs: Metafile['inputs']): string | undefined {
  if (imp.external === true) {
    if (isBuiltin(imp.path) || OPTIONAL_EXTERNALS.has(imp.path)) return undefined;
    return `${name}: ${importer} imports "${imp.path}", which the bundle does not contain: it would load from node_modules, absent where the bundle ships`;
  }
  if (imp.kind !== 'dynamic-import' || inputs[imp.path]?.format !== 'cjs') return undefined;
  return (
    `${name}: ${importer} uses import() on the CommonJS module ${imp.path}: the bundle gives it only a default export, unlike Node; ` +
    'import it statically from a module of ours and import() that module instead (see src/lib/yaml-read.ts)'
  );
}

/** Every problem in one bundle's metafile, one line each; empty when the bundle is sound. */
export function auditBundle(name: string, metafile: Metafile): string[] {
  return Object.entries(metafile.inputs).flatMap(([importer, input]) =>
    input.imports.map((imp) => problemOf(name, importer, imp, metafile.inputs)).filter((p): p is string => p !== undefined),
  );
}
