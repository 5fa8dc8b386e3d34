import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { awsCredentialsFile, parseAwsCredentialsFile } from './credentials.ts';

const PAIR = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };

describe('AWS shared-credentials files', () => {
  it('When credentials are written, the file should be the AWS CLI form and read back the same', () => {
    const file = awsCredentialsFile(PAIR);
    assert.equal(file, '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n');
    assert.deepEqual(parseAwsCredentialsFile(file), PAIR);
  });

  it('When a file has several profiles, comments and CRLF line ends, it should read only the profile asked for', () => {
    const file = '# mine\r\n[other]\r\naws_access_key_id=OTHER\r\naws_secret_access_key=other\r\n\r\n[ backups ]\r\n; comment = no\r\nAWS_ACCESS_KEY_ID = AKIAIOSFODNN7EXAMPLE\r\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\r\nregion = us-east-1\r\n';
    assert.deepEqual(parseAwsCredentialsFile(file, 'backups'), PAIR);
    assert.deepEqual(parseAwsCredentialsFile(file, 'other'), { accessKeyId: 'OTHER', secretAccessKey: 'other' });
  });

  it('When the profile or one of its keys is missing, it should give undefined', () => {
    assert.equal(parseAwsCredentialsFile(awsCredentialsFile(PAIR), 'backups'), undefined);
    assert.equal(parseAwsCredentialsFile('[default]\naws_access_key_id = A\n'), undefined);
    assert.equal(parseAwsCredentialsFile('[default]\naws_access_key_id = A\naws_secret_access_key =\n'), undefined);
  });
});
