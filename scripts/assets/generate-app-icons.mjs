// Draws the app's icons for the web manifest (public/manifest.webmanifest) and iOS's home screen from the same
// mark as public/favicon.svg (a white dot on a green rounded square). The PNGs are committed; run this only to
// change them: `node scripts/assets/generate-app-icons.mjs`.
//  - icon-192.png, icon-512.png: the mark as the favicon draws it, corners transparent;
//  - icon-maskable-512.png: full-bleed green with the dot inside the safe zone (the inner 80 %), for launchers
//    that cut their own shape;
//  - apple-touch-icon.png (180): iOS rounds the corners itself and shows transparency as black, so full-bleed.
import { mkdirSync, statSync } from 'node:fs';
import sharp from 'sharp';

const GREEN = '#15803d';
const out = new URL('../../public/icons/', import.meta.url);
mkdirSync(out, { recursive: true });

const rounded = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${GREEN}"/><circle cx="16" cy="16" r="7" fill="#fff"/></svg>`;
// The dot is 7/32 of the side as a radius on the favicon; on a full-bleed square it keeps that size, well inside
// the maskable safe zone (a circle of 40 % of the side as its radius).
const fullBleed = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${GREEN}"/><circle cx="16" cy="16" r="7" fill="#fff"/></svg>`;

const icons = [
  ['icon-192.png', rounded, 192],
  ['icon-512.png', rounded, 512],
  ['icon-maskable-512.png', fullBleed, 512],
  ['apple-touch-icon.png', fullBleed, 180],
];
for (const [name, svg, size] of icons) {
  const file = new URL(name, out);
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(file.pathname);
  console.log(`${name}: ${size}x${size}, ${statSync(file).size} bytes`);
}
