import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KubeDocument } from '../../../kube/client.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import { toYaml } from '../../../lib/yaml.ts';
import { objectPath, secretListPath, type FiledKind } from './layout.ts';
import { scrubObject, secretEntry } from './redact.ts';
import type { CollectionProblem, DumpPart } from './summary.ts';

/** What every view of one dump shares: the files written and the problems met. */
interface DumpState {
  files: number;
  readonly problems: CollectionProblem[];
}

/**
 * Writes one dump: files under the artifact directory (a view may write under a folder of it, such as the hosted
 * cluster's), objects scrubbed of secret material, Secrets by name only, and the problems met on the way. The one
 * place a dump touches the file system besides the archive.
 */
export class DumpWriter {
  private readonly root: string;
  private readonly folder: string;
  private readonly state: DumpState;
  /** Which side of the dump this view collects. */
  readonly part: DumpPart;

  private constructor(root: string, folder: string, part: DumpPart, state: DumpState) {
    this.root = root;
    this.folder = folder;
    this.part = part;
    this.state = state;
  }

  /** A writer of the management side into `root`, created if missing (a failure is thrown: there is no dump without it). */
  static at(root: string): DumpWriter {
    mkdirSync(root, { recursive: true });
    return new DumpWriter(root, '', 'management', { files: 0, problems: [] });
  }

  /** A view writing under `folder` (relative to the artifact directory), its problems counted as `part`'s. */
  under(folder: string, part: DumpPart): DumpWriter {
    return new DumpWriter(this.root, folder, part, this.state);
  }

  /** How many files were written. */
  get files(): number {
    return this.state.files;
  }

  /** The problems met so far, in order. */
  get problems(): readonly CollectionProblem[] {
    return this.state.problems;
  }

  /** Writes a file at a path relative to this view's folder, creating its folders. */
  write(relative: string, content: string): void {
    const path = join(this.root, this.folder, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    this.state.files++;
  }

  /** Writes an object as YAML where oc would put it, scrubbed of secret material. */
  object(kind: FiledKind, object: KubeDocument): void {
    this.write(objectPath(kind, object.metadata?.namespace, object.metadata?.name ?? ''), toYaml(scrubObject(object)));
  }

  /** Writes a namespace's Secrets by name, type and data keys. */
  secrets(namespace: string, secrets: readonly KubeDocument[]): void {
    const header = '# Secrets by name, type and data keys only: hcp dump never writes a Secret value.\n';
    this.write(secretListPath(namespace), header + toYaml({ items: secrets.map(secretEntry) }));
  }

  /** Records something that could not be collected; the dump goes on. */
  problem(what: string, error: unknown): void {
    this.state.problems.push({ part: this.part, what, error: reasonOf(error) });
  }
}
