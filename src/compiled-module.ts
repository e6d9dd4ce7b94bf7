// Where a module's compiled JavaScript lives, for worker threads (a Worker runs a .js file, with
// none of the test runner's TypeScript transform). Built, the caller runs from dist/ and the
// module sits beside it; under vitest the caller is a .ts source and the module is the one the
// tests' global setup built into the package's dist/.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The URL of `relative` (a .js path) resolved against the compiled form of the module at `callerUrl`. */
export function compiledModuleUrl(callerUrl: string, relative: string): URL {
  const caller = fileURLToPath(callerUrl);
  if (caller.endsWith('.js')) return new URL(relative, callerUrl);
  let root = path.dirname(caller);
  while (!existsSync(path.join(root, 'package.json'))) {
    const parent = path.dirname(root);
    if (parent === root) throw new Error(`no package.json above ${caller}`);
    root = parent;
  }
  const compiledCaller = path.join(root, 'dist', path.relative(root, caller)).replace(/\.ts$/, '.js');
  const url = new URL(relative, pathToFileURL(compiledCaller));
  if (!existsSync(fileURLToPath(url))) throw new Error(`${fileURLToPath(url)} is not built: run npm run build`);
  return url;
}
