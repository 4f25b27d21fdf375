import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A new temporary folder (`root`) holding the least of a build the production server starts on, in `root/dist`:
 * the shell and the build manifest. For tests of the server's edge, logs and operations, which never load a page.
 */
export async function fakeBuild(prefix: string): Promise<{ root: string; dist: string }> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  const dist = path.join(root, 'dist');
  await mkdir(path.join(dist, '_app/builds'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><html><body>app</body></html>');
  await writeFile(path.join(dist, '_app/builds/latest.json'), '{"id":"b","timestamp":1}');
  return { root, dist };
}
