import type { KindDefinition, ObjectSchema, Schema, StringSchema } from './model.ts';

interface Collected {
  readonly objects: Map<string, ObjectSchema>;
  readonly enums: Map<string, StringSchema>;
}

/** The TypeScript-visible shape of an object, used to refuse two different types under one name. */
function shapeOf(schema: Schema): string {
  switch (schema.type) {
    case 'object':
      return `${schema.name}{${Object.entries(schema.properties)
        .map(([k, v]) => `${k}${schema.required?.includes(k) === true ? '' : '?'}:${shapeOf(v)}`)
        .join(',')}}`;
    case 'array':
      return `${shapeOf(schema.items)}[]`;
    case 'map':
      return `{${shapeOf(schema.values)}}`;
    case 'string':
      return schema.enum === undefined ? 'string' : `${schema.name ?? ''}(${schema.enum.join('|')})`;
    default:
      return schema.type + (schema.nullable === true ? '|null' : '');
  }
}

function remember<T extends ObjectSchema | StringSchema>(into: Map<string, T>, name: string, schema: T): boolean {
  const seen = into.get(name);
  if (seen === undefined) {
    into.set(name, schema);
    return true;
  }
  if (shapeOf(seen) !== shapeOf(schema)) throw new Error(`type name ${name} is used for two different shapes`);
  return false;
}

function collect(schema: Schema, into: Collected): void {
  if (schema.type === 'string' && schema.enum !== undefined && schema.name !== undefined) {
    remember(into.enums, schema.name, schema);
  } else if (schema.type === 'object') {
    if (!remember(into.objects, schema.name, schema)) return;
    for (const child of Object.values(schema.properties)) collect(child, into);
  } else if (schema.type === 'array') {
    collect(schema.items, into);
  } else if (schema.type === 'map') {
    collect(schema.values, into);
  }
}

const quote = (v: string): string => `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

const typeExpressions: { [K in Schema['type']]: (schema: Extract<Schema, { type: K }>) => string } = {
  string: (x) => (x.enum === undefined ? 'string' : (x.name ?? x.enum.map(quote).join(' | '))),
  integer: () => 'number',
  boolean: () => 'boolean',
  quantity: () => 'number | string',
  'int-or-string': () => 'number | string',
  object: (x) => x.name,
  map: (x) => `Record<string, ${typeOf(x.values)}>`,
  array: (x) => {
    const item = typeOf(x.items);
    return item.includes(' ') ? `Array<${item}>` : `${item}[]`;
  },
  opaque: () => 'Record<string, unknown>',
};

/** The TypeScript type expression of one schema node. */
function typeOf(schema: Schema): string {
  const expression = (typeExpressions[schema.type] as (x: Schema) => string)(schema);
  return schema.nullable === true ? `${expression} | null` : expression;
}

function docComment(description: string, defaultValue: unknown, indent: string): string {
  const lines = description.split('\n');
  if (defaultValue !== undefined) lines.push(`@default ${JSON.stringify(defaultValue)}`);
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l.replaceAll('*/', '*\\/')}`).join('\n')}\n${indent} */\n`;
}

function renderInterface(schema: ObjectSchema): string {
  const members = Object.entries(schema.properties).map(([key, child]) => {
    const optional = schema.required?.includes(key) === true ? '' : '?';
    return `${docComment(child.description, child.default, '  ')}  ${key}${optional}: ${typeOf(child)};\n`;
  });
  return `${docComment(schema.description, undefined, '')}export interface ${schema.name} {\n${members.join('')}}\n`;
}

function renderKind(def: KindDefinition): string {
  return (
    `${docComment(def.description, undefined, '')}export interface ${def.kind} {\n` +
    `  apiVersion: '${def.group}/${def.version}';\n` +
    `  kind: '${def.kind}';\n` +
    `  metadata: ObjectMeta;\n` +
    `  spec: ${def.spec.name};\n` +
    `  status?: ${def.status.name};\n}\n`
  );
}

/** Renders the TypeScript declarations of every kind and every named type it uses. */
export function renderTypes(kinds: readonly KindDefinition[], header: string): string {
  const collected: Collected = { objects: new Map(), enums: new Map() };
  for (const def of kinds) {
    collect(def.spec, collected);
    collect(def.status, collected);
  }
  const enums = [...collected.enums.values()].map(
    (e) => `${docComment(e.description, undefined, '')}export type ${e.name ?? ''} = ${(e.enum ?? []).map(quote).join(' | ')};\n`,
  );
  const interfaces = [...collected.objects.values()].map(renderInterface);
  return [header, ...kinds.map(renderKind), ...interfaces, ...enums].join('\n');
}
