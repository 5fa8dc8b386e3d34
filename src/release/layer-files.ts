/**
 * The files a release payload's layer holds, read from its bytes: a tar, gzip-compressed or not (node-tar's parser
 * tells them apart), of which only the wanted paths are kept. Entry names are compared without a leading `./` or `/`;
 * a wanted file larger than the limit is refused rather than held in memory.
 */
import { Parser, type ReadEntry } from 'tar';

/** The largest payload file read (the CoreOS stream and image-references are a few hundred KiB). */
export const MAX_PAYLOAD_FILE_BYTES = 16 * 1024 * 1024;

/** The error of a layer that cannot be read, or a wanted file that is too large. */
export class LayerError extends Error {
  override readonly name = 'LayerError';
}

const normalise = (path: string): string => path.replace(/^\.?\/+/, '');

/** The wanted files found in a layer (by normalised path); files not in the layer are simply absent. */
export async function filesInLayer(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, wanted: readonly string[]): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  const pending: Array<Promise<void>> = [];
  let failure: Error | undefined;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      const path = normalise(entry.path);
      if (entry.type !== 'File' || !wanted.includes(path)) return void entry.resume();
      if (entry.size > MAX_PAYLOAD_FILE_BYTES) {
        failure = new LayerError(`${path} is ${String(entry.size)} bytes, over the ${String(MAX_PAYLOAD_FILE_BYTES)} read from a payload`);
        return void entry.resume();
      }
      pending.push(entry.concat().then((data: Buffer) => void found.set(path, data)));
    },
  });
  // Settled by the parser; watched from the start, so a failure mid-stream is seen at the next chunk (and never left
  // unhandled while the layer still streams in).
  let parseError: LayerError | undefined;
  const done = new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.on('error', (error: Error) => {
      parseError = new LayerError(`the layer is not a readable tar: ${error.message}`);
      resolve();
    });
  });
  const stopped = (): Error | undefined => failure ?? parseError;
  for await (const chunk of chunks) {
    // Leaving the loop ends the source (a download stream is destroyed), so a bad layer is not read to its end.
    if (stopped() !== undefined) break;
    // No copy when the source yields Buffers (downloads do).
    parser.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  // A failure before the end is final: the parser is not waited for (a cut-short tar may never finish its entries).
  const early = stopped();
  if (early !== undefined) throw early;
  parser.end();
  await done;
  const late = stopped();
  if (late !== undefined) throw late;
  await Promise.all(pending);
  return found;
}
