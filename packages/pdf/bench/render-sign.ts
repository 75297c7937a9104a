// Renders and signs N diplomas on one core and prints the cost of each stage per document.
// Usage: npm run bench -w packages/pdf [-- --count 500] [-- --rsa]
import { performance } from 'node:perf_hooks';
import { createDevelopmentPki, createDiplomaRenderer, createKeySigner, diplomeEtatTemplate, preparePhoto, signPdf, verifyPdfSignature } from '../src/index.ts';
import { createTestPhoto, createTestSignatureImages, testCredentialJson, testFields, testOfflinePayload } from '../src/test-fixtures.ts';

const args = process.argv.slice(2);
const countArg = args.indexOf('--count');
const count = Number(countArg >= 0 ? args[countArg + 1] : (args.find((a) => /^\d+$/.test(a)) ?? 500));

const names = [
  'Ngalula Kabamba Élodie',
  'Mukendi Tshibangu Josué',
  'Kabila Mwamba Françoise',
  'Lokwa Bofaya Noëlla',
  'Tshisekedi Ilunga Gaël',
  'Mbuyi Kalonji Anaïs',
  'Nzuzi Makiese Chloé',
];
const options = ['Électricité', 'Pédagogie générale', 'Latin-Philosophie', 'Commerciale et gestion', 'Mécanique générale', 'Biologie-Chimie'];

let peakRss = 0;
const sampleMemory = () => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};

const t0 = performance.now();
const renderer = await createDiplomaRenderer({ template: diplomeEtatTemplate, signatureImages: await createTestSignatureImages() });
const setupMs = performance.now() - t0;
const pki = await createDevelopmentPki();
const signer = createKeySigner({ privateKey: pki.signingPrivateKeyPem, certificateChainDer: pki.certificateChainDer });
const photos = await Promise.all(Array.from({ length: 8 }, async (_, i) => preparePhoto(await createTestPhoto(i), renderer.template.photo)));

// Inputs prepared outside the timed loop: the payloads come from other packages.
const inputs = Array.from({ length: count }, (_, i) => {
  const fields = testFields({ name: names[i % names.length]!, option: options[i % options.length]!, diplomaNumber: `DE-2025-${String(i).padStart(7, '0')}` });
  return {
    fields,
    credential: testCredentialJson(fields),
    qr: { verifyUrl: `https://sceau.example.cd/verify/${Buffer.from(String(i)).toString('base64url').padEnd(22, 'x')}`, offlinePayload: testOfflinePayload() },
  };
});

const rssAfterSetupMb = Math.round(process.memoryUsage().rss / 1024 / 1024);

// Warm-up (JIT, kerning cache), not counted.
for (let i = 0; i < 20; i++) {
  const input = inputs[i % inputs.length]!;
  await signPdf(await renderer.render(input.fields, photos[0]!, input.qr, input.credential), signer);
}

let renderMs = 0;
let signMs = 0;
let bytes = 0;
for (let i = 0; i < count; i++) {
  const input = inputs[i]!;
  const a = performance.now();
  const unsigned = await renderer.render(input.fields, photos[i % photos.length]!, input.qr, input.credential);
  const b = performance.now();
  const signed = await signPdf(unsigned, signer);
  const c = performance.now();
  renderMs += b - a;
  signMs += c - b;
  bytes += signed.length;
  if (i % 50 === 0) sampleMemory();
  if (i === count - 1 && !verifyPdfSignature(signed).intact) throw new Error('last signature does not verify');
}
sampleMemory();

const result = {
  documents: count,
  setupMs: Math.round(setupMs),
  renderMsPerDoc: +(renderMs / count).toFixed(3),
  signMsPerDoc: +(signMs / count).toFixed(3),
  totalMsPerDoc: +((renderMs + signMs) / count).toFixed(3),
  docsPerSecond: Math.round((count * 1000) / (renderMs + signMs)),
  avgPdfKb: +(bytes / count / 1024).toFixed(1),
  sharedKb: +(renderer.sharedBytes / 1024).toFixed(1),
  rssAfterSetupMb,
  peakRssMb: Math.round(peakRss / 1024 / 1024),
  node: process.version,
};
console.log(`renderer set-up (fonts subset, template drawn): ${result.setupMs} ms (once per process)`);
console.log(
  `render: ${result.renderMsPerDoc} ms/doc   sign (PAdES, ECDSA P-256): ${result.signMsPerDoc} ms/doc   total: ${result.totalMsPerDoc} ms/doc (${result.docsPerSecond}/s on one core)`,
);
console.log(`average PDF: ${result.avgPdfKb} KB (shared part ${result.sharedKb} KB)   RSS after set-up: ${result.rssAfterSetupMb} MB, peak: ${result.peakRssMb} MB`);
console.log(JSON.stringify(result));
