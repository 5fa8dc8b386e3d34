import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { s } from './build.ts';
import type { KindDefinition } from './model.ts';
import { renderTypes } from './typegen.ts';

const kind = (spec: KindDefinition['spec']): KindDefinition => ({
  group: 'example.io',
  version: 'v1',
  kind: 'Thing',
  plural: 'things',
  singular: 'thing',
  shortNames: [],
  description: 'A thing.',
  spec,
  status: s.object('ThingStatus', 'Status.', {}),
  specRequired: true,
  printerColumns: [],
});

describe('renderTypes', () => {
  it('When a schema has optional, defaulted and enum fields, it should render them as TypeScript', () => {
    const text = renderTypes(
      [kind(s.object('ThingSpec', 'Spec.', { size: s.quantity('Size.', { default: '1Gi' }), mode: s.enum('Mode', 'Mode.', ['A', 'B']), n: s.int32('N.') }, { required: ['n'] }))],
      '',
    );
    assert.match(text, /size\?: number \| string;/);
    assert.match(text, /@default "1Gi"/);
    assert.match(text, /mode\?: Mode;/);
    assert.match(text, /n: number;/);
    assert.match(text, /export type Mode = 'A' \| 'B';/);
  });

  it('When one type name is used for two different shapes, it should refuse to generate', () => {
    const a = s.object('Ref', 'A.', { name: s.string('N.') });
    const b = s.object('Ref', 'B.', { key: s.string('K.') });
    assert.throws(() => renderTypes([kind(s.object('ThingSpec', 'Spec.', { a, b }))], ''), /Ref is used for two different shapes/);
  });
});
