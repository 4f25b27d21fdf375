// npm's `prepare` script, run by `npm ci` and `npm install`: Panda's codegen (styled-system/), which a checkout
// needs for `npm run dev`, the type check and the tests. An install without devDependencies (`npm ci --omit=dev`,
// to serve a build that exists) has no Panda and needs no codegen: it used to stop there with exit 127.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  require.resolve('@pandacss/dev/package.json');
} catch {
  console.log(
    'prepare: Panda is not installed (devDependencies omitted), so there is no style code to generate.',
  );
  process.exit(0);
}
const result = spawnSync('panda', ['codegen', '--silent'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
