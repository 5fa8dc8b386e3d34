// The start-up snapshot of hcp (snapshot.ts) holds the command tree without the cluster client: the client is most
// of the code, and a snapshot starts slower the more it holds. The bundler replaces every module of src/kube/ and
// @kubernetes/client-node by this stub, so the first command that reaches for the client stops with this marker and
// the snapshot hands the whole run to the full bundle.

/** The `code` of the error the stub throws. */
export const NEEDS_FULL_BUNDLE = 'HCP_NEEDS_FULL_BUNDLE';

/** The source of the stub module (esbuild loads it in place of each replaced module). */
export const STUB_SOURCE = `throw Object.assign(new Error('this command needs the cluster client: continuing in the full bundle'), { code: ${JSON.stringify(NEEDS_FULL_BUNDLE)} });`;

/** Whether an error is the stub's marker. */
export function needsFullBundle(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === NEEDS_FULL_BUNDLE;
}
