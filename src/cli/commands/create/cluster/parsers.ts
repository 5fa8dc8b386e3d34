import type { KubevirtStorageClassMapping, KubevirtVolumeSnapshotClassMapping, Toleration } from '../../../../api/index.ts';

/** A flag value that could not be used: which flag, the value and why. */
export interface Problem {
  readonly flag: string;
  readonly value: string;
  readonly message: string;
}

/** A parse result: the value or the problem. */
export type Parsed<T> = { readonly ok: T } | { readonly problem: Problem };

/** Parses `key=value` (for --annotations and --labels). */
export function parseKeyValue(flag: string, text: string): Parsed<[string, string]> {
  const at = text.indexOf('=');
  if (at <= 0) return { problem: { flag, value: text, message: 'must be key=value with a non-empty key' } };
  return { ok: [text.slice(0, at), text.slice(at + 1)] };
}

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
const OPERATORS = ['Exists', 'Equal'] as const;

function caseInsensitive<T extends string>(values: readonly T[], text: string): T | undefined {
  return values.find((v) => v.toLowerCase() === text.toLowerCase());
}

const TOLERATION_FIELDS: Record<string, (t: Toleration, v: string) => string | undefined> = {
  key: (t, v) => void (t.key = v),
  value: (t, v) => void (t.value = v),
  operator: (t, v) => (((t.operator = caseInsensitive(OPERATORS, v)) === undefined ? `operator must be one of ${OPERATORS.join(', ')}` : undefined)),
  effect: (t, v) => (((t.effect = caseInsensitive(EFFECTS, v)) === undefined ? `effect must be one of ${EFFECTS.join(', ')}` : undefined)),
  tolerationSeconds: (t, v) => (/^\d+$/.test(v) ? void (t.tolerationSeconds = Number(v)) : 'tolerationSeconds must be a whole number'),
};

/** Parses `key=k,value=v,operator=Equal,effect=NoSchedule,tolerationSeconds=30` (enum values case-insensitive). */
export function parseToleration(text: string): Parsed<Toleration> {
  const toleration: Toleration = {};
  for (const part of text.split(',')) {
    const [name = '', value = ''] = part.split(/=(.*)/s, 2);
    const set = TOLERATION_FIELDS[name.trim()];
    const failure = set === undefined ? `unknown option "${name}"; valid options are ${Object.keys(TOLERATION_FIELDS).join(', ')}` : set(toleration, value.trim());
    if (failure !== undefined) return { problem: { flag: 'toleration', value: text, message: `invalid toleration cli argument. ${failure}` } };
  }
  return { ok: toleration };
}

/**
 * Parses `<infra class>/<guest class>[,group=<group>]`. Upstream panics on an option without `=`; here every
 * malformed mapping is a clear error.
 */
export function parseClassMapping(flag: string, text: string): Parsed<{ infra: string; guest: string; group?: string }> {
  const [classes = '', ...options] = text.split(',').map((s) => s.trim());
  const names = classes.split('/');
  const fail = (message: string): Parsed<never> => ({ problem: { flag, value: text, message } });
  if (names.length !== 2 || names.some((n) => n === '')) return fail('must be <infra class>/<guest class>[,group=<group>]');
  let group: string | undefined;
  for (const option of options) {
    const match = /^group=(.+)$/.exec(option);
    if (match === null) return fail(`unknown option "${option}"; the only option is group=<group name>`);
    group = match[1];
  }
  return { ok: { infra: names[0] ?? '', guest: names[1] ?? '', ...(group === undefined ? {} : { group }) } };
}

/** A storage class mapping for the HostedCluster's manual storage driver. */
export const storageClassMapping = (m: { infra: string; guest: string; group?: string }): KubevirtStorageClassMapping => ({
  infraStorageClassName: m.infra,
  guestStorageClassName: m.guest,
  ...(m.group === undefined ? {} : { group: m.group }),
});

/** A volume snapshot class mapping for the HostedCluster's manual storage driver. */
export const volumeSnapshotClassMapping = (m: { infra: string; guest: string; group?: string }): KubevirtVolumeSnapshotClassMapping => ({
  infraVolumeSnapshotClassName: m.infra,
  guestVolumeSnapshotClassName: m.guest,
  ...(m.group === undefined ? {} : { group: m.group }),
});

const IPV4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/** Whether a string is an IPv4 or IPv6 CIDR. */
export function isCidr(text: string): boolean {
  const v4 = IPV4_CIDR.exec(text);
  if (v4 !== null) return v4.slice(1, 5).every((o) => Number(o) <= 255) && Number(v4[5]) <= 32;
  const [address = '', prefix = ''] = text.split('/');
  return /^[0-9a-fA-F:]+$/.test(address) && address.includes(':') && /^\d{1,3}$/.test(prefix) && Number(prefix) <= 128;
}

const INFRA_ID_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * An infrastructure ID as upstream makes one: the name with anything but letters, digits and dashes replaced,
 * shortened to 21 characters, plus `-` and five random characters from Kubernetes' name-suffix alphabet.
 */
export function newInfraID(name: string, random: (n: number) => Uint8Array): string {
  const base = name.replace(/[^A-Za-z0-9-]/g, '-').replace(/--+/g, '-').slice(0, 21).replace(/-+$/, '');
  const suffix = [...random(5)].map((b) => INFRA_ID_ALPHABET[b % INFRA_ID_ALPHABET.length]).join('');
  return `${base}-${suffix}`;
}
