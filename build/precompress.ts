/**
 * Brotli and gzip copies of every text file of the build, made once at build time at the highest settings (too
 * slow per request, free once). @fastify/static serves `file.br` or `file.gz` by Accept-Encoding; static hosts
 * and CDNs compress on their own. node:zlib is the compressor; this only walks the folder.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats worth compressing; images and fonts are compressed already. */
export const COMPRESSIBLE = /\.(html|js|mjs|css|json|svg|txt|xml|webmanifest)$/;

/** Below this the headers outweigh any saving. */
const MIN_BYTES = 512;

export interface Compressed {
  file: string;
  raw: number;
  br?: number;
  gzip?: number;
}

export async function precompress(dir: string): Promise<Compressed[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(file);
      const result: Compressed = { file: path.relative(dir, file), raw: bytes.length };
      if (bytes.length < MIN_BYTES) return result;
      const [br, gzipped] = await Promise.all([
        brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gz(bytes, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      // A copy that saves nothing would only cost a disk read.
      if (br.length < bytes.length) {
        await writeFile(`${file}.br`, br);
        result.br = br.length;
      }
      if (gzipped.length < bytes.length) {
        await writeFile(`${file}.gz`, gzipped);
        result.gzip = gzipped.length;
      }
      return result;
    }),
  );
}
