// Lint rules: typescript-eslint's type-checked recommendations, the size/complexity budgets of the style guide
// (shared/reference/aesthetic-anchors.md §3 rule 22), and the layer direction of ARCHITECTURE.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Pure layers: no I/O, so they may never import the I/O shells or Node's I/O modules. */
const PURE = ['lib', 'api', 'pki', 'capacity', 'release', 'controlplane', 'platform', 'render'];
const SHELLS = ['kube', 'registry', 'objectstore', 'runtime', 'operator', 'ignition', 'cli', 'local', 'testing'];
const NODE_IO = ['fs', 'fs/promises', 'child_process', 'net', 'http', 'https', 'http2', 'dgram', 'dns', 'tls', 'worker_threads', 'cluster'];

const folderPatterns = (folders) => folders.map((f) => ({ group: [`**/${f}/**`, `../${f}/*`, `./${f}/*`], message: `layer rule: this layer may not import src/${f}/ (see ARCHITECTURE.md)` }));
const nodeIoPaths = () => NODE_IO.flatMap((m) => [`node:${m}`, m]).map((name) => ({ name, message: 'layer rule: pure layers do no I/O; take the data as an argument' }));

/** What each layer may not import, beyond the general rule that pure layers never reach the I/O shells. */
const LAYERS = {
  lib: [...PURE.filter((l) => l !== 'lib'), ...SHELLS],
  api: [...PURE.filter((l) => !['lib', 'api'].includes(l)), ...SHELLS],
  pki: ['controlplane', 'platform', 'render', ...SHELLS],
  capacity: ['controlplane', 'platform', 'render', ...SHELLS],
  release: ['controlplane', 'platform', 'render', ...SHELLS],
  // render → controlplane → platform: the hosted cluster's objects use the control plane's, and both use the platform's.
  controlplane: ['render', ...SHELLS],
  platform: ['controlplane', 'render', ...SHELLS],
  render: SHELLS,
  kube: ['registry', 'objectstore', 'runtime', 'operator', 'ignition', 'cli', 'local', 'testing'],
  // OCI registries (release payloads): beside kube, below the operator, the CLI and the local environment.
  registry: ['kube', 'objectstore', 'runtime', 'operator', 'ignition', 'cli', 'local', 'testing'],
  // S3-compatible object stores (etcd backups): likewise beside kube and registry.
  objectstore: ['kube', 'registry', 'runtime', 'operator', 'ignition', 'cli', 'local', 'testing'],
  // The controller runtime (informers, work queue, leader election, clock, logger, metrics) the operator, the
  // ignition endpoint, the CLI and the local environment share: above kube, below all of them.
  runtime: ['registry', 'objectstore', 'operator', 'ignition', 'cli', 'local', 'testing'],
  // The ignition endpoint runs on the shared runtime (informer, logger, clock); the operator only launches it.
  ignition: ['cli', 'local', 'testing'],
  operator: ['cli', 'local', 'testing'],
};

const layerConfigs = Object.entries(LAYERS).flatMap(([layer, forbidden]) => [
  {
    files: [`src/${layer}/**/*.ts`],
    ignores: ['**/*.test.ts', '**/*.itest.ts', '**/*.atest.ts', '**/*.btest.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: folderPatterns(forbidden), paths: PURE.includes(layer) ? nodeIoPaths() : [] }],
    },
  },
  {
    // Tests may use the test harness and read fixtures, but still respect the direction between product layers.
    files: [`src/${layer}/**/*.test.ts`, `src/${layer}/**/*.itest.ts`, `src/${layer}/**/*.atest.ts`, `src/${layer}/**/*.btest.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: folderPatterns(forbidden.filter((f) => f !== 'testing')) }] },
  },
]);

/**
 * The console's page (src/web) runs in the browser: it may use the API's types and the console's wire types, never
 * the I/O shells or Node's I/O, and it never writes markup from strings (the XSS rule: text is always escaped).
 */
const webConfig = {
  files: ['src/web/**/*.ts', 'src/web/**/*.tsx'],
  rules: {
    'no-restricted-imports': ['error', { patterns: folderPatterns(['kube', 'registry', 'objectstore', 'operator', 'ignition', 'local', 'testing', 'controlplane', 'render', 'platform', 'pki', 'capacity', 'release']), paths: nodeIoPaths() }],
    'no-restricted-syntax': [
      'error',
      { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'the console never renders markup from strings: render text' },
      { selector: "MemberExpression[property.name=/^(innerHTML|outerHTML)$/]", message: 'the console never renders markup from strings: render text' },
    ],
  },
};

export default tseslint.config(
  { ignores: ['node_modules/**', '.tools/**', '.cache/**', 'dist/**', 'bin/**', 'eslint.config.js', '.dependency-cruiser.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      complexity: ['error', 10],
      'max-depth': ['error', 3],
      'max-params': ['error', 4],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 350, skipBlankLines: true, skipComments: true }],
      'no-console': 'error',
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's describe/it return promises the runner itself awaits.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      '@typescript-eslint/explicit-module-boundary-types': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests are tables of cases: long describe blocks are their natural shape.
    files: ['**/*.test.ts', '**/*.itest.ts', '**/*.atest.ts', '**/*.btest.ts', 'src/testing/**/*.ts'],
    // Tests also poke at untyped JSON to build invalid objects, which is what the `any` rules forbid elsewhere.
    rules: {
      'max-lines-per-function': 'off',
      'max-lines': ['error', { max: 600 }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/explicit-module-boundary-types': 'off',
    },
  },
  {
    files: ['**/zz_generated.*.ts'],
    rules: { 'max-lines': 'off' },
  },
  ...layerConfigs,
  webConfig,
);
