/**
 * S3 credentials and the AWS shared-credentials file that carries them (`~/.aws/credentials`; the `credentials` key
 * of the Secret an etcd backup names, as upstream's HCPEtcdBackup reads it). Pure.
 */

/** An access key pair. */
export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** A shared-credentials file with one profile. */
export function awsCredentialsFile(credentials: S3Credentials, profile = 'default'): string {
  return `[${profile}]\naws_access_key_id = ${credentials.accessKeyId}\naws_secret_access_key = ${credentials.secretAccessKey}\n`;
}

/** The `key = value` lines of one profile of an INI-style file (comments and other profiles left out). */
function profileLines(text: string, profile: string): Map<string, string> {
  const values = new Map<string, string>();
  let current: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (section !== null) current = section[1];
    else if (current === profile && !/^[#;]/.test(line) && line.includes('=')) {
      const at = line.indexOf('=');
      values.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim());
    }
  }
  return values;
}

/**
 * One setting of a profile (lower-cased name, e.g. `endpoint_url`, the AWS shared-config setting that points a client
 * at an S3-compatible store); undefined when absent or empty.
 */
export function awsProfileSetting(text: string, setting: string, profile = 'default'): string | undefined {
  const value = profileLines(text, profile).get(setting.toLowerCase());
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The access key pair of one profile of a shared-credentials file; undefined when the profile or either key is
 * missing (the caller says which file and profile, without echoing the file).
 */
export function parseAwsCredentialsFile(text: string, profile = 'default'): S3Credentials | undefined {
  const values = profileLines(text, profile);
  const accessKeyId = values.get('aws_access_key_id');
  const secretAccessKey = values.get('aws_secret_access_key');
  if (accessKeyId === undefined || accessKeyId === '' || secretAccessKey === undefined || secretAccessKey === '') return undefined;
  return { accessKeyId, secretAccessKey };
}
