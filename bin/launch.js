// The operator launcher's half (bin/hcp-operator; bin/hcp starts a start-up snapshot instead): turns on Node's
// compile cache (so a bundle is parsed once, not on every run) and imports a bundle that `./dev setup` builds into
// dist/. CommonJS so the cache is on before the first ES module is compiled.
'use strict';
const { existsSync } = require('node:fs');
const { enableCompileCache } = require('node:module');
const { homedir } = require('node:os');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

/** Starts dist/<relativePath>; `name` and `devCommand` only shape the message when it is not built yet. */
module.exports = function launch(relativePath, name, devCommand) {
  const bundle = join(__dirname, '..', 'dist', relativePath);
  if (!existsSync(bundle)) {
    process.stderr.write(`${name} is not built yet: run ./dev setup (or use ./dev ${devCommand} ...)\n`);
    process.exit(1);
  }
  enableCompileCache?.(join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hcp-kubevirt', 'node-compile-cache'));
  import(pathToFileURL(bundle).href).catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
};
