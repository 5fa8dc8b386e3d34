/**
 * YAML reading, in a module of our own so that commands can load it lazily.
 *
 * Why a module of our own: `yaml` is a CommonJS package. Run from source, Node gives a dynamic `import('yaml')`
 * named exports detected in its CommonJS text; esbuild's split bundle gives it only `default`, so
 * `(await import('yaml')).parse` was `undefined` in the shipped `hcp` (the infra kubeconfig was "not a kubeconfig"
 * and `--image-content-sources` crashed). A static import, as here, is converted the same way by both, and this
 * file is ESM, so `import()` of it keeps its named exports. `scripts/bundle-audit.ts` refuses a build that
 * dynamically imports a CommonJS module again.
 */
import { parse } from 'yaml';

/** Parses one YAML (or JSON, which is YAML) document into plain data; throws on a syntax error. */
export function parseYaml(text: string): unknown {
  return parse(text) as unknown;
}
