import { stringify } from 'yaml';

/**
 * Serialises Kubernetes objects as a multi-document YAML stream the way `kubectl` users expect to read it:
 * keys sorted at every level, block style, no line folding, and each document ended by `---`.
 */
export function toYamlDocuments(objects: readonly unknown[]): string {
  return objects.map((o) => `${toYaml(o)}---\n`).join('');
}

/** Serialises one object as YAML with sorted keys. */
export function toYaml(object: unknown): string {
  return stringify(object, { sortMapEntries: true, lineWidth: 0, aliasDuplicateObjects: false, indentSeq: false });
}
