import { asList as list, asRecord as record } from '../../lib/objects.ts';

/** One file an Ignition config writes, decoded. */
export interface IgnitionFile {
  readonly path: string;
  readonly mode: number;
  readonly contents: string;
}

/** One systemd unit an Ignition config declares. */
export interface IgnitionUnit {
  readonly name: string;
  readonly enabled: boolean;
  /** The unit file, when the config writes one (absent: the image's own unit is enabled). */
  readonly contents?: string;
}

/** What an Ignition config does to a machine's root, in the order it does it. */
export interface MaterialisedIgnition {
  readonly files: readonly IgnitionFile[];
  readonly units: readonly IgnitionUnit[];
  readonly sshAuthorizedKeys: Readonly<Record<string, readonly string[]>>;
}

/** The error of a config this reader does not understand: it refuses rather than write half a machine. */
export class IgnitionConfigError extends Error {
  override readonly name = 'IgnitionConfigError';
}

/** The contents of a `data:` URL (RFC 2397), base64 or percent-encoded; any other scheme is refused. */
export function decodeDataURL(source: string): string {
  const match = /^data:([^,]*),(.*)$/s.exec(source);
  if (match === null) throw new IgnitionConfigError(`only data: URLs are materialised here, not ${source.slice(0, 40)}`);
  const [, meta = '', payload = ''] = match;
  return meta.endsWith(';base64') ? Buffer.from(payload, 'base64').toString('utf8') : decodeURIComponent(payload);
}

type Json = Record<string, unknown>;

function filesOf(config: Json): IgnitionFile[] {
  return list(record(config['storage'])['files']).map((entry) => {
    const item = record(entry);
    const path = item['path'];
    if (typeof path !== 'string' || !path.startsWith('/')) throw new IgnitionConfigError(`a file without an absolute path: ${JSON.stringify(path)}`);
    const source = record(item['contents'])['source'];
    if (record(item['contents'])['compression'] !== undefined) throw new IgnitionConfigError(`${path}: compressed contents are not materialised here`);
    return { path, mode: typeof item['mode'] === 'number' ? item['mode'] : 0o644, contents: typeof source === 'string' ? decodeDataURL(source) : '' };
  });
}

/**
 * What an Ignition 3.x config (the subset the ignition endpoint serves: files with `data:` contents, units, users'
 * SSH keys) writes, decoded. Anything else in `storage` (directories, links, file systems) is refused by name.
 */
export function materialiseIgnition(config: Json): MaterialisedIgnition {
  const version = record(config['ignition'])['version'];
  if (typeof version !== 'string' || !version.startsWith('3.')) throw new IgnitionConfigError(`Ignition spec version ${JSON.stringify(version)} is not 3.x`);
  const storage = record(config['storage']);
  for (const key of Object.keys(storage)) if (key !== 'files') throw new IgnitionConfigError(`storage.${key} is not materialised here`);
  const units = list(record(config['systemd'])['units']).map((entry) => {
    const item = record(entry);
    return { name: String(item['name']), enabled: item['enabled'] === true, ...(typeof item['contents'] === 'string' ? { contents: item['contents'] } : {}) };
  });
  const sshAuthorizedKeys = Object.fromEntries(list(record(config['passwd'])['users']).map((entry) => [String(record(entry)['name']), list(record(entry)['sshAuthorizedKeys']).map(String)]));
  return { files: filesOf(config), units, sshAuthorizedKeys };
}

/** What an Ignition pointer (a machine's user data) says: where to fetch, with which headers, trusting which CA. */
export interface IgnitionPointer {
  readonly source: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly ca: string;
}

/** Reads the pointer an upstream-shaped user-data config holds (`ignition.config.merge[0]`, its headers and CA). */
export function parseIgnitionPointer(userData: string): IgnitionPointer {
  const ignition = record(record(JSON.parse(userData) as unknown)['ignition']);
  const merge = record(list(record(ignition['config'])['merge'])[0]);
  const source = merge['source'];
  if (typeof source !== 'string' || !source.startsWith('https://')) throw new IgnitionConfigError('the user data names no https:// config to merge');
  const headers = Object.fromEntries(list(merge['httpHeaders']).map((h) => [String(record(h)['name']), String(record(h)['value'])]));
  const caSource = record(list(record(record(ignition['security'])['tls'])['certificateAuthorities'])[0])['source'];
  return { source, headers, ca: typeof caSource === 'string' ? decodeDataURL(caSource) : '' };
}
