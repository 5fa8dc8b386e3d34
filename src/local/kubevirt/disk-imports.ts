/**
 * CDI's import of container disks for the stand-in's `vm` backend, whose QEMU machines boot real disks: each image is
 * pulled once, in the background, and the DataVolumes naming it follow where its import stands. A failed pull is
 * tried again after a while, as CDI retries an import.
 */
import type { ContainerDisk } from '../vm/container-disk.ts';
import type { Importer, ImportState } from './data-volumes.ts';

/** What the imports need: the pull itself and the clock. */
export interface ContainerDiskImportOptions {
  readonly pull: (image: string) => Promise<ContainerDisk>;
  readonly now: () => number;
  /** How long a failed pull is reported before it is tried again. @default 30 s */
  readonly retryMs?: number;
}

interface Entry {
  readonly state: ImportState;
  readonly disk?: ContainerDisk;
  readonly since: number;
}

/** The container disks pulled (or being pulled) for the stand-in's DataVolumes. */
export class ContainerDiskImports {
  private readonly options: ContainerDiskImportOptions;
  private readonly entries = new Map<string, Entry>();
  private readonly listeners: Array<(image: string) => void> = [];

  constructor(options: ContainerDiskImportOptions) {
    this.options = options;
  }

  /** Where the import of `image` stands; the first ask (or the first after a failure has waited its time) starts it. */
  readonly importer: Importer = (image) => {
    const entry = this.entries.get(image);
    const retry = entry?.state.phase === 'Failed' && this.options.now() - entry.since >= (this.options.retryMs ?? 30_000);
    if (entry !== undefined && !retry) return entry.state;
    this.entries.set(image, { state: { phase: 'ImportInProgress' }, since: this.options.now() });
    void this.options.pull(image).then(
      (disk) => this.settle(image, { state: { phase: 'Succeeded' }, disk, since: this.options.now() }),
      (error: unknown) => this.settle(image, { state: { phase: 'Failed', message: error instanceof Error ? error.message : String(error) }, since: this.options.now() }),
    );
    return { phase: 'ImportInProgress' };
  };

  /** The pulled disk of `image`; throws when its import has not succeeded (a machine starts only after its disks have). */
  disk(image: string): ContainerDisk {
    const disk = this.entries.get(image)?.disk;
    if (disk === undefined) throw new Error(`the container disk ${image} has not been imported`);
    return disk;
  }

  /** Calls `listener` with the image whenever an import ends (the DataVolumes naming it are to be looked at again). */
  onSettled(listener: (image: string) => void): void {
    this.listeners.push(listener);
  }

  private settle(image: string, entry: Entry): void {
    this.entries.set(image, entry);
    for (const listener of this.listeners) listener(image);
  }
}
