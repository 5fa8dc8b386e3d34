// Import rules that ESLint's per-file view cannot see, checked by dependency-cruiser in the lint tier: no file may
// reach itself through its imports (type-only and dynamic imports count), at any depth. The layer directions between
// folders are ESLint's `no-restricted-imports` rules in eslint.config.js.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-import-cycle',
      comment: 'A cycle ties its files into one unit that can be neither read nor tested apart: move what both sides share into a file of its own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^node_modules' },
    doNotFollow: { path: '^node_modules' },
  },
};
