/**
 * The Go runtime settings of a control plane's API servers, from upstream's HostedCluster annotations (mirrored to the
 * HostedControlPlane): `hypershift.openshift.io/kube-apiserver-gogc` and `…-gomemlimit`, for a smaller footprint.
 *
 * Upstream passes the values through as they are; a GOMEMLIMIT Go cannot parse stops the API server at start, every
 * time, so a typo took the control plane down. Here a value Go would refuse is refused by validation instead, and the
 * running API servers are left alone.
 */
import { Annotation } from '../../api/v1beta1/well-known.ts';

/** What Go reads from GOGC: a percentage, or `off`. */
const GOGC = /^(off|\d+)$/;
/** What Go reads from GOMEMLIMIT: a byte count with an optional binary unit, or `off`. */
const GOMEMLIMIT = /^(off|\d+(B|KiB|MiB|GiB|TiB)?)$/;

const SETTINGS = [
  { env: 'GOGC', annotation: Annotation.KubeAPIServerGOGC, valid: GOGC, expected: 'a percentage (e.g. 50) or off' },
  { env: 'GOMEMLIMIT', annotation: Annotation.KubeAPIServerGOMemoryLimit, valid: GOMEMLIMIT, expected: 'a byte count with an optional unit B, KiB, MiB, GiB or TiB (e.g. 1536MiB), or off' },
] as const;

type Annotations = Readonly<Record<string, string>> | undefined;

/** The settings the annotations set, each with its value and whether Go would read it. */
const annotated = (annotations: Annotations): Array<(typeof SETTINGS)[number] & { value: string; readable: boolean }> =>
  SETTINGS.flatMap((s) => {
    const value = annotations?.[s.annotation];
    return value === undefined ? [] : [{ ...s, value, readable: s.valid.test(value) }];
  });

/** The environment the annotations give the kube-apiserver container (none when neither is set). */
export function goRuntimeEnv(annotations: Annotations): Array<{ name: string; value: string }> {
  return annotated(annotations).filter((s) => s.readable).map((s) => ({ name: s.env, value: s.value }));
}

/** Why the annotations cannot be used (the first one Go would refuse), or undefined. */
export function goRuntimeProblem(annotations: Annotations): string | undefined {
  const refused = annotated(annotations).find((s) => !s.readable);
  return refused === undefined ? undefined : `annotation ${refused.annotation} is ${JSON.stringify(refused.value)}: ${refused.env} must be ${refused.expected}`;
}
