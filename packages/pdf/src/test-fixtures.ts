// Test and benchmark material made on the fly: a portrait photo as a phone would take it, scanned
// signatures with transparency, and the credential and QR contents of a diploma.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { DiplomaFields } from './template.ts';
import type { SignatureImages } from './renderer.ts';

/** A 1200×1600 portrait JPEG with skin-like gradients and sensor noise (~250 KB, like a phone photo). */
export async function createTestPhoto(seed = 1): Promise<Uint8Array> {
  const hue = 20 + (seed % 7) * 3;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1600">
    <defs>
      <radialGradient id="skin" cx="45%" cy="40%" r="60%"><stop offset="0" stop-color="hsl(${hue},45%,42%)"/><stop offset="1" stop-color="hsl(${hue},50%,22%)"/></radialGradient>
      <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#dfe7ee"/><stop offset="1" stop-color="#b9c6d3"/></linearGradient>
    </defs>
    <rect width="1200" height="1600" fill="url(#bg)"/>
    <path d="M120 1600 C160 1180 420 1080 600 1080 C780 1080 1040 1180 1080 1600 Z" fill="#1f2d4a"/>
    <path d="M470 1090 L600 1300 L730 1090 Z" fill="#f4f4f4"/>
    <rect x="520" y="900" width="160" height="220" fill="url(#skin)"/>
    <ellipse cx="600" cy="660" rx="270" ry="350" fill="url(#skin)"/>
    <path d="M330 600 C330 300 870 300 870 600 C840 420 360 420 330 600 Z" fill="#151010"/>
    <ellipse cx="500" cy="640" rx="42" ry="20" fill="#f3efe9"/><circle cx="500" cy="640" r="16" fill="#2a1a12"/>
    <ellipse cx="700" cy="640" rx="42" ry="20" fill="#f3efe9"/><circle cx="700" cy="640" r="16" fill="#2a1a12"/>
    <path d="M450 590 Q500 565 550 590" stroke="#1a0f0a" stroke-width="10" fill="none"/>
    <path d="M650 590 Q700 565 750 590" stroke="#1a0f0a" stroke-width="10" fill="none"/>
    <path d="M600 650 Q585 760 560 790 Q600 810 640 790" stroke="hsl(${hue},40%,25%)" stroke-width="8" fill="none"/>
    <path d="M520 880 Q600 930 680 880" stroke="#5a2a25" stroke-width="14" fill="none"/>
  </svg>`;
  const base = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  // Skin, fabric and background texture at a scale that survives the downscale, plus sensor noise.
  const texture = randomBytes(300 * 400);
  const noise = randomBytes(base.data.length);
  for (let y = 0; y < 1600; y++) {
    for (let x = 0; x < 1200; x++) {
      const t = (texture[(y >> 2) * 300 + (x >> 2)]! % 21) - 10;
      for (let c = 0; c < 3; c++) {
        const i = (y * 1200 + x) * 3 + c;
        base.data[i] = Math.max(0, Math.min(255, base.data[i]! + t + ((noise[i]! % 9) - 4)));
      }
    }
  }
  return sharp(base.data, { raw: base.info }).jpeg({ quality: 88 }).toBuffer();
}

/** A handwritten-looking signature in blue ink on a transparent background (PNG). */
export async function createTestSignature(seed: number): Promise<Uint8Array> {
  let x = 40;
  const parts: string[] = [`M ${x} 190`];
  for (let i = 0; i < 9; i++) {
    const up = 60 + ((seed * 37 + i * 53) % 90);
    const down = 170 + ((seed * 11 + i * 29) % 60);
    parts.push(`C ${x + 20} ${up}, ${x + 55} ${up - 30}, ${x + 60} ${down}`);
    x += 70;
  }
  parts.push(`M 60 230 C 300 ${200 + (seed % 3) * 10}, 520 250, ${x} 205`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="300"><path d="${parts.join(' ')}" stroke="#14286e" stroke-width="7" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function createTestSignatureImages(): Promise<SignatureImages> {
  const [ministry, inspectorGeneral, juryPresident] = await Promise.all([createTestSignature(1), createTestSignature(2), createTestSignature(3)]);
  return { ministry, inspectorGeneral, juryPresident };
}

export function testFields(overrides: Partial<DiplomaFields> = {}): DiplomaFields {
  return {
    name: 'Ngalula Kabamba Élodie',
    born: 'née',
    birthPlace: 'Inongo (Maï-Ndombe)',
    birthDate: '14 février 2007',
    option: 'Électricité',
    school: 'Institut Technique Saint-Joseph de Kinshasa',
    centre: 'Kinshasa-Gombe 04',
    province: 'Kinshasa-Funa',
    session: '2025',
    percentage: '68,4',
    issuePlace: 'Kinshasa',
    issueDate: '15 août 2025',
    diplomaNumber: 'DE-2025-0042871',
    candidateCode: '10124503001234',
    issuerName: "Ministère de l'Éducation nationale et Nouvelle Citoyenneté",
    issuerNameTop: "Ministère de l'Éducation nationale",
    issuerNameBottom: 'et Nouvelle Citoyenneté',
    ...overrides,
  };
}

const BASE45 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';

/** A base45 string of the size of a signed offline payload (~280 bytes before base45). */
export function testOfflinePayload(bytes = 280): string {
  const data = randomBytes(bytes);
  let out = 'SC1:';
  for (let i = 0; i + 1 < data.length; i += 2) {
    let v = data[i]! * 256 + data[i + 1]!;
    const chars = [v % 45, Math.floor(v / 45) % 45, Math.floor(v / 2025)];
    out += chars.map((c) => BASE45[c]).join('');
    v = 0;
  }
  return out;
}

export function testCredentialJson(fields: DiplomaFields): Uint8Array {
  const credential = {
    id: 'q3Yb1mJk2Vx8Zr4tN6pL0w',
    issuer: { name: "Ministère de l'Éducation nationale et Nouvelle Citoyenneté", country: 'CD' },
    subject: fields,
    targetHash: randomBytes(32).toString('hex'),
    proof: { merkleRoot: randomBytes(32).toString('hex'), path: Array.from({ length: 14 }, () => randomBytes(32).toString('hex')) },
    salts: Object.fromEntries(Object.keys(fields).map((k) => [k, randomBytes(16).toString('base64url')])),
  };
  return new TextEncoder().encode(JSON.stringify(credential, null, 2));
}
