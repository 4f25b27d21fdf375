// Draws the fixture campaigns' pictures (api/fixtures/images/campaigns/campaign-{id}.jpg) from SVG art.
// The JPEGs are committed; run this only to change them: `node scripts/assets/generate-campaign-images.mjs`.
// Flat shapes and gradients keep each file small (1200x800, quality 70, well under 80 KB).
import { mkdirSync, statSync } from 'node:fs';
import sharp from 'sharp';

const W = 1200;
const H = 800;
const out = new URL('../../api/fixtures/images/campaigns/', import.meta.url);

const svg = (defs, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs}</defs>${body}</svg>`;

const sky = (id, top, bottom) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`;

const repeat = (count, draw) => Array.from({ length: count }, (_, i) => draw(i)).join('');

/** 1: a community garden, raised beds under a morning sun. */
function garden() {
  const beds = repeat(4, (i) => {
    const x = 90 + i * 265;
    const plants = repeat(5, (j) => {
      const px = x + 30 + j * 40;
      return `<path d="M${px} 560 q-18 -60 0 -95 q18 35 0 95z" fill="#3f9d4b"/><path d="M${px} 560 q-34 -40 -28 -70 q24 20 28 70z" fill="#5cb85c"/><circle cx="${px}" cy="${455 - (j % 2) * 12}" r="9" fill="${j % 2 ? '#f2c14e' : '#e76f51'}"/>`;
    });
    return `${plants}<rect x="${x}" y="560" width="220" height="90" rx="10" fill="#8a5a34"/><rect x="${x}" y="560" width="220" height="18" rx="6" fill="#a8713f"/>`;
  });
  return svg(
    `${sky('s', '#bfe6ff', '#f3f9e8')}<radialGradient id="sun"><stop offset="0" stop-color="#fff6c2"/><stop offset="1" stop-color="#ffd166"/></radialGradient>`,
    `<rect width="${W}" height="${H}" fill="url(#s)"/><circle cx="960" cy="170" r="90" fill="url(#sun)"/>
     <path d="M0 520 Q300 440 600 500 T1200 470 V800 H0z" fill="#9ad17f"/>
     <rect y="640" width="${W}" height="160" fill="#6b4a2b"/>${beds}
     <path d="M0 700 H1200" stroke="#5a3d22" stroke-width="6" stroke-dasharray="30 20"/>`,
  );
}

/** 2: a school library, shelves of bright book spines. */
function library() {
  const colours = ['#e63946', '#f4a261', '#2a9d8f', '#457b9d', '#e9c46a', '#8d5fd3', '#ff7aa2', '#1d3557'];
  const shelves = repeat(3, (row) => {
    const y = 150 + row * 200;
    let x = 110;
    let books = '';
    for (let k = 0; x < 1080; k++) {
      const w = 28 + ((k * 37 + row * 11) % 30);
      const h = 120 + ((k * 53 + row * 7) % 45);
      const c = colours[(k + row * 3) % colours.length];
      const tilt = k % 9 === 4 ? ` transform="rotate(-8 ${x} ${y + 160})"` : '';
      books += `<rect x="${x}" y="${y + 160 - h}" width="${w}" height="${h}" rx="3" fill="${c}"${tilt}/><rect x="${x + 5}" y="${y + 175 - h}" width="${w - 10}" height="6" fill="#fff" opacity=".55"/>`;
      x += w + 4;
    }
    return `${books}<rect x="80" y="${y + 160}" width="1040" height="22" fill="#7a4e2d"/>`;
  });
  return svg(
    sky('s', '#fdf0d5', '#f6d7a7'),
    `<rect width="${W}" height="${H}" fill="url(#s)"/><rect x="60" y="110" width="1080" height="640" rx="16" fill="#a0673c"/>
     <rect x="80" y="130" width="1040" height="600" fill="#5c3a21"/>${shelves}`,
  );
}

/** 3: a river winding between green hills, ripples and a clean bank. */
function river() {
  const ripples = repeat(14, (i) => {
    const x = 120 + ((i * 173) % 960);
    const y = 520 + ((i * 61) % 230);
    return `<path d="M${x} ${y} q25 -12 50 0 t50 0" stroke="#e0f7ff" stroke-width="5" fill="none" opacity=".8"/>`;
  });
  return svg(
    `${sky('s', '#8ecae6', '#e0f4ff')}<linearGradient id="w" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3aa6d0"/><stop offset="1" stop-color="#1d6fa3"/></linearGradient>`,
    `<rect width="${W}" height="${H}" fill="url(#s)"/>
     <path d="M0 360 Q200 250 420 330 T860 300 T1200 320 V800 H0z" fill="#74b870"/>
     <path d="M0 430 Q260 350 520 420 T1200 400 V800 H0z" fill="#4f9a52"/>
     <path d="M460 420 C560 470 380 560 520 640 C640 710 420 760 460 800 H900 C820 740 980 680 860 600 C760 530 900 470 700 420z" fill="url(#w)"/>
     ${ripples}<circle cx="200" cy="140" r="60" fill="#fff" opacity=".9"/><circle cx="260" cy="130" r="75" fill="#fff" opacity=".9"/><circle cx="330" cy="150" r="55" fill="#fff" opacity=".9"/>`,
  );
}

/** 4: a food bank's shelves of tins, jars and boxes. */
function foodBank() {
  const items = repeat(3, (row) => {
    const y = 250 + row * 170;
    return repeat(9, (i) => {
      const x = 150 + i * 100;
      const kind = (i + row) % 3;
      if (kind === 0)
        return `<rect x="${x}" y="${y - 90}" width="70" height="90" rx="8" fill="#e76f51"/><rect x="${x}" y="${y - 62}" width="70" height="30" fill="#fefae0"/><ellipse cx="${x + 35}" cy="${y - 90}" rx="35" ry="8" fill="#c95a40"/>`;
      if (kind === 1)
        return `<rect x="${x}" y="${y - 120}" width="76" height="120" rx="4" fill="#e9c46a"/><rect x="${x + 10}" y="${y - 100}" width="56" height="40" fill="#fff" opacity=".7"/>`;
      return `<rect x="${x + 8}" y="${y - 100}" width="60" height="100" rx="14" fill="#2a9d8f"/><rect x="${x + 14}" y="${y - 112}" width="48" height="16" rx="4" fill="#264653"/>`;
    });
  });
  const shelves = repeat(
    3,
    (row) => `<rect x="110" y="${250 + row * 170}" width="980" height="16" fill="#6d597a"/>`,
  );
  return svg(
    sky('s', '#f1faee', '#dde7f0'),
    `<rect width="${W}" height="${H}" fill="url(#s)"/><rect x="100" y="60" width="1000" height="720" rx="12" fill="#b5a8c9"/>
     <rect x="120" y="80" width="960" height="680" fill="#ece4f5"/>${items}${shelves}
     <path d="M560 660 c0 -40 80 -40 80 0 c0 40 -80 80 -80 80 c0 0 -80 -40 -80 -80 c0 -40 80 -40 80 0z" fill="#e63946" transform="translate(40 -20)"/>`,
  );
}

/** 5: a bike repair café: a bicycle, a spanner and a cup of coffee. */
function bikeCafe() {
  const wheel = (cx) =>
    `<circle cx="${cx}" cy="560" r="130" fill="none" stroke="#264653" stroke-width="16"/>${repeat(
      8,
      (i) =>
        `<line x1="${cx}" y1="560" x2="${cx + 122 * Math.cos((i * Math.PI) / 4)}" y2="${560 + 122 * Math.sin((i * Math.PI) / 4)}" stroke="#264653" stroke-width="3"/>`,
    )}<circle cx="${cx}" cy="560" r="14" fill="#264653"/>`;
  return svg(
    sky('s', '#ffe8d6', '#ffd0b0'),
    `<rect width="${W}" height="${H}" fill="url(#s)"/><rect y="690" width="${W}" height="110" fill="#cb997e"/>
     ${wheel(330)}${wheel(800)}
     <path d="M330 560 L480 360 L700 360 L800 560 M480 360 L560 560 L700 360 M560 560 L330 560" fill="none" stroke="#e76f51" stroke-width="18" stroke-linejoin="round"/>
     <path d="M460 330 h70 M700 360 l-20 -70 h60" fill="none" stroke="#264653" stroke-width="16" stroke-linecap="round"/>
     <g transform="rotate(-30 1000 220)"><rect x="940" y="205" width="170" height="30" rx="15" fill="#8d99ae"/><circle cx="940" cy="220" r="38" fill="#8d99ae"/><circle cx="940" cy="220" r="16" fill="#ffd0b0"/></g>
     <rect x="120" y="150" width="110" height="120" rx="14" fill="#fff"/><path d="M230 180 q50 0 50 35 t-50 35" fill="none" stroke="#fff" stroke-width="14"/>
     <path d="M150 130 q10 -30 0 -55 M185 130 q10 -30 0 -55" stroke="#b08968" stroke-width="6" fill="none" stroke-linecap="round"/>`,
  );
}

/** 6: a coding club: a laptop with code on screen and floating brackets. */
function codingClub() {
  const colours = ['#80ffdb', '#ffd166', '#ff7aa2', '#a0c4ff'];
  const lines = repeat(9, (i) => {
    const indent = [0, 40, 80, 80, 40, 40, 80, 40, 0][i] ?? 0;
    const width = 120 + ((i * 97) % 260);
    return `<rect x="${370 + indent}" y="${230 + i * 34}" width="${width}" height="14" rx="7" fill="${colours[i % colours.length]}"/>`;
  });
  return svg(
    `<linearGradient id="s" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3a0ca3"/><stop offset="1" stop-color="#4361ee"/></linearGradient>`,
    `<rect width="${W}" height="${H}" fill="url(#s)"/>
     <rect x="320" y="170" width="560" height="370" rx="22" fill="#1b1b2f"/><rect x="340" y="190" width="520" height="330" rx="8" fill="#10101c"/>${lines}
     <path d="M250 560 H950 L1010 640 H190z" fill="#c9ccd6"/><rect x="540" y="585" width="120" height="18" rx="9" fill="#9aa0b0"/>
     <text x="140" y="260" font-family="monospace" font-size="140" font-weight="700" fill="#80ffdb" opacity=".8">{</text>
     <text x="960" y="260" font-family="monospace" font-size="140" font-weight="700" fill="#ffd166" opacity=".8">}</text>
     <text x="120" y="520" font-family="monospace" font-size="90" font-weight="700" fill="#ff7aa2" opacity=".7">&lt;/&gt;</text>`,
  );
}

const art = [garden, library, river, foodBank, bikeCafe, codingClub];
mkdirSync(out, { recursive: true });
for (const [index, draw] of art.entries()) {
  const file = new URL(`campaign-${index + 1}.jpg`, out);
  await sharp(Buffer.from(draw())).jpeg({ quality: 70, mozjpeg: true }).toFile(file.pathname);
  console.log(`${file.pathname}: ${(statSync(file).size / 1024).toFixed(1)} KB`);
}
