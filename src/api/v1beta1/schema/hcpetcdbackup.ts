/**
 * `HCPEtcdBackup`: one request to back up a hosted control plane's etcd, made in the control-plane namespace. The
 * fields, rules and messages are upstream's (HyperShift's `hcpetcdbackup_types.go`), so manifests written for it apply
 * here unchanged; upstream gates the kind behind `HCPEtcdBackup` (TechPreviewNoUpgrade), and so does this operator.
 */
import { s, withRules } from '../../schema/build.ts';
import type { CelRule, ObjectSchema, StringSchema } from '../../schema/model.ts';
import { conditions } from './version-status.ts';

const matches = (pattern: string, message: string): CelRule => ({ rule: `self.matches('${pattern}')`, message });
const KMS_ARN = '^arn:(aws|aws-cn|aws-us-gov):kms:[a-z0-9-]+:[0-9]{12}:key/[a-zA-Z0-9-]+$';
const KMS_ARN_MESSAGE = 'kmsKeyARN must be a valid AWS KMS key ARN (arn:<partition>:kms:<region>:<account-id>:key/<key-id>)';
const KEY_VAULT_URL = '^https://[a-zA-Z0-9-]+\\\\.vault\\\\.azure\\\\.net/keys/[a-zA-Z0-9-]+(/[a-zA-Z0-9]+)?$';
const KEY_VAULT_MESSAGE = 'encryptionKeyURL must be a valid Azure Key Vault HTTPS URL (https://<vault>.vault.azure.net/keys/<key-name>[/<key-version>])';

const secretReference = s.object(
  'HCPEtcdBackupSecretReference',
  'A Secret by name, in the namespace of the HyperShift operator.',
  {
    name: s.string('The Secret\'s name: a DNS-1123 subdomain.', {
      minLength: 1,
      maxLength: 253,
      rules: [
        matches(
          '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$',
          'name must consist only of lowercase alphanumeric characters, hyphens, and periods. Each period-separated segment must start and end with an alphanumeric character.',
        ),
      ],
    }),
  },
  { required: ['name'] },
);

const kmsKeyARN = (description: string, immutable: boolean): StringSchema =>
  s.string(description, { minLength: 1, maxLength: 256, rules: [matches(KMS_ARN, KMS_ARN_MESSAGE), ...(immutable ? [{ rule: 'self == oldSelf', message: 'kmsKeyARN is immutable' }] : [])] });

const keyVaultURL = (description: string, immutable: boolean): StringSchema =>
  s.string(description, { minLength: 1, maxLength: 210, rules: [matches(KEY_VAULT_URL, KEY_VAULT_MESSAGE), ...(immutable ? [{ rule: 'self == oldSelf', message: 'encryptionKeyURL is immutable' }] : [])] });

const s3Storage = withRules(
  s.object(
    'HCPEtcdBackupS3',
    'Where in S3 (or an S3-compatible store) the snapshot goes.',
    {
      bucket: s.string('The bucket: 3-63 lowercase letters, digits, hyphens and periods.', {
        minLength: 3,
        maxLength: 63,
        rules: [
          matches('^[a-z0-9][a-z0-9.-]*[a-z0-9]$', 'bucket must consist of lowercase letters, numbers, hyphens, and periods, and must start and end with a letter or number'),
          { rule: "!self.contains('..')", message: 'bucket must not contain consecutive periods' },
        ],
      }),
      region: s.string('The region of the bucket, such as us-east-1.', {
        minLength: 1,
        maxLength: 63,
        rules: [
          matches('^[a-z][a-z0-9-]*[a-z0-9]$', 'region must consist of lowercase letters, digits, and hyphens, must start with a letter and end with an alphanumeric character'),
          { rule: "!self.contains('--')", message: 'region must not contain consecutive hyphens' },
        ],
      }),
      keyPrefix: s.string('The key prefix of the snapshot object (the object is <keyPrefix>/<unix time>.db).', {
        minLength: 1,
        maxLength: 1024,
        rules: [
          matches(
            "^[a-zA-Z0-9!_.*\\'()/-]+$",
            'keyPrefix must consist of safe S3 key characters: alphanumeric characters, forward slashes, hyphens, underscores, periods, exclamation marks, asterisks, single quotes, and parentheses',
          ),
        ],
      }),
      credentials: { ...secretReference, description: 'The Secret with the key "credentials": an AWS credentials file.' },
      kmsKeyARN: kmsKeyARN('The KMS key for server-side encryption of the snapshot; immutable once set.', true),
    },
    { required: ['bucket', 'region', 'keyPrefix', 'credentials'] },
  ),
  { rule: '!has(oldSelf.kmsKeyARN) || has(self.kmsKeyARN)', message: 'kmsKeyARN cannot be removed once set' },
);

const azureBlobStorage = withRules(
  s.object(
    'HCPEtcdBackupAzureBlob',
    'Where in Azure Blob Storage the snapshot goes (refused by this operator: see its condition).',
    {
      container: s.string('The container: 3-63 lowercase letters, digits and hyphens.', {
        minLength: 3,
        maxLength: 63,
        rules: [
          matches('^[a-z0-9]([a-z0-9-]*[a-z0-9])?$', 'container must consist of lowercase letters, numbers, and hyphens, and must start and end with a letter or number'),
          { rule: "!self.contains('--')", message: 'container must not contain consecutive hyphens' },
        ],
      }),
      storageAccount: s.string('The storage account: 3-24 lowercase letters and digits.', {
        minLength: 3,
        maxLength: 24,
        rules: [matches('^[a-z0-9]+$', 'storageAccount must consist of lowercase letters and numbers only')],
      }),
      keyPrefix: s.string('The blob name prefix of the snapshot.', {
        minLength: 1,
        maxLength: 1024,
        rules: [matches('^[a-zA-Z0-9/_.-]+$', 'keyPrefix must consist of alphanumeric characters, forward slashes, hyphens, underscores, and periods')],
      }),
      credentials: { ...secretReference, description: 'The Secret with Azure credentials.' },
      encryptionKeyURL: keyVaultURL('The Key Vault key that encrypts the snapshot; immutable once set.', true),
    },
    { required: ['container', 'storageAccount', 'keyPrefix', 'credentials'] },
  ),
  { rule: '!has(oldSelf.encryptionKeyURL) || has(self.encryptionKeyURL)', message: 'encryptionKeyURL cannot be removed once set' },
);

const storage = withRules(
  s.object(
    'HCPEtcdBackupStorage',
    'The store the snapshot is uploaded to: exactly the member storageType names.',
    {
      storageType: s.enum('HCPEtcdBackupStorageType', 'S3 or AzureBlob.', ['S3', 'AzureBlob']),
      s3: s3Storage,
      azureBlob: azureBlobStorage,
    },
    { required: ['storageType'] },
  ),
  { rule: "self.storageType == 'S3' ? has(self.s3) : !has(self.s3)", message: 's3 configuration is required when storageType is S3, and forbidden otherwise' },
  { rule: "self.storageType == 'AzureBlob' ? has(self.azureBlob) : !has(self.azureBlob)", message: 'azureBlob configuration is required when storageType is AzureBlob, and forbidden otherwise' },
);

/** `HCPEtcdBackup.spec`: immutable, a backup is one request. */
export const hcpEtcdBackupSpec: ObjectSchema = withRules(
  s.object('HCPEtcdBackupSpec', 'One backup request; the whole spec is immutable once created.', { storage }, { required: ['storage'] }),
  { rule: 'self == oldSelf', message: 'HCPEtcdBackupSpec is immutable' },
);

/** `HCPEtcdBackup.status`. */
export const hcpEtcdBackupStatus: ObjectSchema = s.object(
  'HCPEtcdBackupStatus',
  'What became of the backup.',
  {
    conditions: { ...conditions, minItems: 1, maxItems: 10 },
    snapshotURL: s.string('Where the snapshot is: s3://<bucket>/<key>.', {
      minLength: 1,
      maxLength: 2048,
      rules: [matches('^(https|s3)://.*', 'snapshotURL must be a valid URL with scheme https or s3')],
    }),
    encryptionMetadata: s.object(
      'HCPEtcdBackupEncryptionMetadata',
      'The encryption applied to the stored snapshot, when any.',
      {
        aws: s.object('HCPEtcdBackupEncryptionMetadataAWS', 'S3 server-side encryption.', { kmsKeyARN: kmsKeyARN('The KMS key used.', false) }, { required: ['kmsKeyARN'] }),
        azure: s.object('HCPEtcdBackupEncryptionMetadataAzure', 'Azure encryption.', { encryptionKeyURL: keyVaultURL('The Key Vault key used.', false) }, { required: ['encryptionKeyURL'] }),
      },
      { minProperties: 1 },
    ),
  },
  { minProperties: 1 },
);

/**
 * `HostedCluster.spec.etcd.managed.backup`. Upstream's fields (`platform` and its `aws`/`azure` encryption settings,
 * used when an HCPEtcdBackup exists) plus ours: a `schedule` on which the operator asks for backups of the cluster,
 * the `storage` they go to (as an HCPEtcdBackup's, credentials in the operator's namespace), and how many snapshots
 * of the schedule the bucket keeps. `platform` is optional here: a schedule alone needs no cloud's encryption.
 */
export const hcpEtcdBackupConfig: ObjectSchema = s.object(
  'HCPEtcdBackupConfig',
  'How the cluster\'s etcd is backed up: upstream\'s encryption settings, and ours for scheduled backups.',
  {
    platform: s.enum('HCPEtcdBackupConfigPlatform', 'The cloud whose encryption settings follow: AWS or Azure.', ['AWS', 'Azure']),
    aws: s.object('HCPEtcdBackupConfigAWS', 'AWS KMS encryption of backups.', { kmsKeyARN: kmsKeyARN('The KMS key that encrypts backup artifacts in S3.', false) }, { required: ['kmsKeyARN'] }),
    azure: s.object('HCPEtcdBackupConfigAzure', 'Azure Key Vault encryption of backups.', { encryptionKeyURL: keyVaultURL('The Key Vault key that encrypts backup artifacts.', false) }, { required: ['encryptionKeyURL'] }),
    schedule: s.string('Ours: when to back up, a five-field cron expression in UTC (minute hour day-of-month month day-of-week), such as "0 */6 * * *".', {
      minLength: 9,
      maxLength: 100,
      rules: [matches('^\\\\S+( +\\\\S+){4}$', 'schedule must be a cron expression of five fields: minute hour day-of-month month day-of-week')],
    }),
    storage: { ...storage, description: 'Ours: where scheduled backups go, as an HCPEtcdBackup\'s spec.storage (its credentials Secret in the operator\'s namespace).' },
    retention: s.object(
      'HCPEtcdBackupRetention',
      'Ours: what a scheduled backup leaves in the bucket.',
      { maxSnapshots: s.int32('How many snapshots of the schedule the bucket keeps under the key prefix; after each scheduled backup, older ones are deleted. Unset keeps every one.', { minimum: 1, maximum: 1000 }) },
    ),
  },
  {
    rules: [
      { rule: "has(self.platform) && self.platform == 'AWS' ? has(self.aws) : !has(self.aws)", message: 'aws configuration is required when platform is AWS, and forbidden otherwise' },
      { rule: "has(self.platform) && self.platform == 'Azure' ? has(self.azure) : !has(self.azure)", message: 'azure configuration is required when platform is Azure, and forbidden otherwise' },
      { rule: 'has(self.schedule) == has(self.storage)', message: 'schedule and storage go together: scheduled backups need a storage, and a storage is only used by a schedule' },
      { rule: '!has(self.retention) || has(self.schedule)', message: 'retention applies to scheduled backups: set a schedule' },
    ],
  },
);
