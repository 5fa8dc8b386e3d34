/** The version of this build of hcp; the commit is filled in by the bundler (`scripts/build-cli.ts`). */
export const BUILD_INFO = {
  name: 'hcp-kubevirt',
  version: '0.1.0',
  commit: process.env.HCP_BUILD_COMMIT ?? 'unknown',
} as const;

/** The operator image `hcp install` deploys unless `--hypershift-image` names another. */
export const DEFAULT_OPERATOR_IMAGE = `quay.io/hcp-kubevirt/hcp-operator:v${BUILD_INFO.version}`;
