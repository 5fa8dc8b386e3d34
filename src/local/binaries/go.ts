import { spawn, spawnSync } from 'node:child_process';

/** Raised when Go is needed but absent: one line that names the prerequisite and the alternative. */
export class GoMissingError extends Error {
  constructor() {
    super(
      'Go (1.26 or newer) is required to build kube-apiserver, kube-controller-manager, kubectl and etcd; ' +
        'install Go, or set HCP_KUBE_BINARIES (or KUBEBUILDER_ASSETS) to a folder that already holds those binaries',
    );
    this.name = 'GoMissingError';
  }
}

/** The environment every Go invocation runs with: no toolchain downloads, static binaries, module mode. */
export function goEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOFLAGS: '-mod=mod' };
}

/** Fails with {@link GoMissingError} unless a `go` command answers. */
export function requireGo(): void {
  const probe = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) throw new GoMissingError();
}

/** Options of {@link runGo}. */
export interface RunGoOptions {
  readonly cwd: string;
  /** Called with every line Go prints (stderr and stdout), e.g. to count compiled packages. */
  readonly onLine?: (line: string) => void;
  /** Settings over {@link goEnv}'s (cgo for a tool with C in it). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Runs `go <args>` and resolves with its stdout; rejects with the tail of its output on failure. */
export function runGo(args: readonly string[], options: RunGoOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', args, { cwd: options.cwd, env: { ...goEnv(), ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const tail: string[] = [];
    const onData = (isStdout: boolean) => (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (isStdout) stdout += text;
      for (const line of text.split('\n').filter((l) => l !== '')) {
        options.onLine?.(line);
        tail.push(line);
        if (tail.length > 30) tail.shift();
      }
    };
    child.stdout.on('data', onData(true));
    child.stderr.on('data', onData(false));
    child.on('error', (error) => reject(error));
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`go ${args.join(' ')} failed (exit ${String(code)}):\n${tail.join('\n')}`));
    });
  });
}
