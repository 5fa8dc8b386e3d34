import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { toYaml } from '../lib/yaml.ts';
import { assertGolden } from './golden.ts';
import { DOCUMENTED_INFRA_ROLE_FILE } from './infra.ts';
import { SHARED_DIR, skipUnlessShared } from './paths.ts';

/** The seed copy of upstream's external-infrastructure page (rendered text). */
const PAGE = ['seeds', '000_cfda33668106d066.txt'];

describe('the documented external-infrastructure Role', () => {
  it('When the seed page is present, our copy of its Role should equal the page (UPDATE=1 rewrites it from the page)', { skip: skipUnlessShared(...PAGE) }, () => {
    const page = readFileSync(join(SHARED_DIR, ...PAGE), 'utf8');
    const start = page.indexOf('apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\n');
    const end = page.indexOf('\nFor full virt-launcher network isolation', start);
    assert.ok(start >= 0 && end > start, 'the Role is no longer where the seed page had it');
    assertGolden(DOCUMENTED_INFRA_ROLE_FILE, toYaml(parse(page.slice(start, end))));
  });
});
