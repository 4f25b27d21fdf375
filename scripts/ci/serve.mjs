// `npm run serve`: the production server of the last build, from its artifact (.output/server/index.mjs), without
// building again. Arguments pass through (`npm run serve -- …`); OUTPUT_DIR names another artifact. Without a
// build it says so in one line, where Node would print a module-resolution stack.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const entry = path.resolve(process.env.OUTPUT_DIR || '.output', 'server/index.mjs');
if (!existsSync(entry)) {
  console.error(`No production build at ${entry}: run \`npm run build\` first.`);
  process.exit(1);
}
await import(pathToFileURL(entry).href);
