/**
 * The rules a release version must pass before a HostedCluster moves to it (pure). Upstream's `ValidReleaseImage`
 * rules, with their messages: within the supported range of its family, and no downgrade across minors. Added here:
 * no minor skipped on the way up, since Kubernetes' version-skew policy lets a control plane move one minor at a time.
 */
import { SUPPORTED_KUBERNETES_VERSIONS, SUPPORTED_OCP_VERSIONS } from './supported-versions.ts';

/** A `major.minor.patch` version (a pre-release or build suffix is ignored). */
export interface SemVer {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** Parses `1.36.3`, `v1.36.3`, `4.17.0-rc.1`; undefined when it is not a version. */
export function parseVersion(version: string): SemVer | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(version.trim());
  if (match === null) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

const formatMinor = (v: Pick<SemVer, 'major' | 'minor'>): string => `${String(v.major)}.${String(v.minor)}`;
const formatVersion = (v: SemVer): string => `${formatMinor(v)}.${String(v.patch)}`;

/** The supported minors of one version family, oldest and newest. */
interface SupportedRange {
  readonly oldest: Pick<SemVer, 'major' | 'minor'>;
  readonly newest: Pick<SemVer, 'major' | 'minor'>;
}

/** The range a list of supported minors (`['4.17', '4.16']`, newest first) spans. */
function rangeOf(minors: readonly string[]): SupportedRange {
  const parsed = minors.map((m) => parseVersion(`${m}.0`)).filter((v): v is SemVer => v !== undefined);
  const [newest] = parsed;
  const oldest = parsed.at(-1);
  if (newest === undefined || oldest === undefined) throw new Error(`no supported minor version in ${minors.join(', ')}`);
  return { oldest, newest };
}

/**
 * The supported range per major version, from the supported-versions lists: OpenShift releases (4.x, the manual's
 * window) and this project's Kubernetes-native releases (1.x).
 */
export const SUPPORTED_RANGES: Readonly<Record<number, SupportedRange>> = {
  4: rangeOf(SUPPORTED_OCP_VERSIONS),
  1: rangeOf(SUPPORTED_KUBERNETES_VERSIONS),
};

const compareMinor = (a: Pick<SemVer, 'major' | 'minor'>, b: Pick<SemVer, 'major' | 'minor'>): number => a.major - b.major || a.minor - b.minor;

/** The kubelet may be at most this many minors older than the API server (Kubernetes' version-skew policy). */
export const MAX_KUBELET_MINOR_SKEW = 3;

/** How many minors `older` is behind `newer`, within one major; undefined across majors or for what is not a version. */
export function minorsBehind(older: string, newer: string): number | undefined {
  const [a, b] = [parseVersion(older), parseVersion(newer)];
  return a === undefined || b === undefined || a.major !== b.major ? undefined : b.minor - a.minor;
}

/** Orders two versions: negative when `a` is older. */
export const compareVersions = (a: SemVer, b: SemVer): number => compareMinor(a, b) || a.patch - b.patch;

/** Which rule refused a version: users and conditions tell them apart by it. */
export type VersionRule = 'unparsable' | 'unsupported-family' | 'newer-than-supported' | 'older-than-supported' | 'family-change' | 'minor-downgrade' | 'minor-skipped';

/** A refused version: the rule and upstream's (or, for the rules added here, our) message. */
export interface VersionRefusal {
  readonly rule: VersionRule;
  readonly message: string;
}

/** The requested version against the supported range of its family. */
function rangeRefusal(requested: SemVer, platform: string): VersionRefusal | undefined {
  const range = SUPPORTED_RANGES[requested.major];
  if (range === undefined) {
    return { rule: 'unsupported-family', message: `version "${formatVersion(requested)}" is neither an OpenShift 4.x nor a Kubernetes 1.x release` };
  }
  if (compareMinor(requested, range.newest) > 0) {
    return { rule: 'newer-than-supported', message: `the latest version supported is: "${formatMinor(range.newest)}.0". Attempting to use: "${formatVersion(requested)}"` };
  }
  if (compareMinor(requested, range.oldest) < 0) {
    return { rule: 'older-than-supported', message: `the minimum version supported for platform ${platform} is: "${formatMinor(range.oldest)}.0". Attempting to use: "${formatVersion(requested)}"` };
  }
  return undefined;
}

/** The requested version against the one the cluster runs or is moving to. */
function movementRefusal(requested: SemVer, current: SemVer): VersionRefusal | undefined {
  const from = formatVersion(current);
  const to = formatVersion(requested);
  if (requested.major !== current.major) return { rule: 'family-change', message: `moving from version "${from}" to "${to}" changes the major version, which is not supported` };
  if (requested.minor < current.minor) return { rule: 'minor-downgrade', message: `y-stream downgrade from "${from}" to "${to}" is not supported` };
  if (requested.minor > current.minor + 1) {
    const skipped = Array.from({ length: requested.minor - current.minor - 1 }, (_, i) => formatMinor({ major: current.major, minor: current.minor + 1 + i }));
    return { rule: 'minor-skipped', message: `y-stream upgrade from "${from}" to "${to}" skips ${skipped.join(', ')}: move one minor version at a time` };
  }
  return undefined;
}

/** What the rules are given. */
export interface VersionRuleInput {
  /** The version of the release asked for. */
  readonly requested: string;
  /** The version the cluster last accepted (runs or is moving to); undefined for a new cluster. */
  readonly current?: string | undefined;
  /** The platform, named in the minimum-version message as upstream names it. */
  readonly platform: string;
}

/**
 * Why the requested version may not be used, or undefined when it may. A z-stream move within a minor, up or down,
 * is always allowed (as upstream); a downgrade across minors never is; an upgrade may move one minor.
 */
export function refuseVersion(input: VersionRuleInput): VersionRefusal | undefined {
  const requested = parseVersion(input.requested);
  if (requested === undefined) return { rule: 'unparsable', message: `release version "${input.requested}" is not a semantic version` };
  const range = rangeRefusal(requested, input.platform);
  if (range !== undefined) return range;
  const current = input.current === undefined ? undefined : parseVersion(input.current);
  return current === undefined ? undefined : movementRefusal(requested, current);
}

/** Whether two versions share a minor (a z-stream move). */
export function sameMinor(a: string, b: string): boolean {
  const [va, vb] = [parseVersion(a), parseVersion(b)];
  return va !== undefined && vb !== undefined && compareMinor(va, vb) === 0;
}
