// Renders and signs N diplomas on one core and prints the cost of each stage per document.
// Usage: npm run bench -w packages/pdf [-- --count 500] [-- --rsa] [-- --lta]
// --lta: PAdES B-LTA as issuing makes it (ADR 0135): signature time-stamp from the local TSA
// (in-process), then the DSS and a document time-stamp; `ltaMsPerDoc` is that last step.
import { performance } from 'node:perf_hooks';
import {
  createCertificateRevocationList,
  createDevelopmentPki,
  createDevelopmentTsa,
  createDiplomaRenderer,
  createKeySigner,
  createLocalTimeStampAuthority,
  diplomeEtatTemplate,
  extendToLongTerm,
  preparePhoto,
  signPdf,
  verifyDocumentTimestamps,
  verifyPdfSignature,
} from '../src/index.ts';
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
const lta = args.includes('--lta');
const ca = { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem };
const tsaPki = await createDevelopmentTsa({ ca });
const tsa = createLocalTimeStampAuthority({ signer: createKeySigner({ privateKey: tsaPki.privateKeyPem, certificateChainDer: tsaPki.certificateChainDer }) });
const crl = await createCertificateRevocationList({ ca, revoked: [], thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 7 * 86400e3), crlNumber: 1 });
const validation = { certificates: [...pki.certificateChainDer, tsaPki.certificateDer], crls: [crl] };
const timestamper = lta ? tsa : undefined;
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
  const signed = await signPdf(await renderer.render(input.fields, photos[0]!, input.qr, input.credential), signer, { timestamper });
  if (lta) await extendToLongTerm(signed, validation, tsa, { hashedPrefix: renderer.hashedPrefix() });
}

let renderMs = 0;
let signMs = 0;
let ltaMs = 0;
let bytes = 0;
for (let i = 0; i < count; i++) {
  const input = inputs[i]!;
  const a = performance.now();
  const unsigned = await renderer.render(input.fields, photos[i % photos.length]!, input.qr, input.credential);
  const b = performance.now();
  let signed = await signPdf(unsigned, signer, { timestamper, hashedPrefix: renderer.hashedPrefix() });
  const c = performance.now();
  if (lta) signed = await extendToLongTerm(signed, validation, tsa, { hashedPrefix: renderer.hashedPrefix() });
  const d = performance.now();
  renderMs += b - a;
  signMs += c - b;
  ltaMs += d - c;
  bytes += signed.length;
  if (i % 50 === 0) sampleMemory();
  if (i === count - 1 && !verifyPdfSignature(signed).intact) throw new Error('last signature does not verify');
  if (i === count - 1 && lta && !verifyDocumentTimestamps(signed)[0]?.ok) throw new Error('last document time-stamp does not verify');
}
sampleMemory();

const result = {
  documents: count,
  setupMs: Math.round(setupMs),
  renderMsPerDoc: +(renderMs / count).toFixed(3),
  signMsPerDoc: +(signMs / count).toFixed(3),
  ...(lta ? { ltaMsPerDoc: +(ltaMs / count).toFixed(3) } : {}),
  totalMsPerDoc: +((renderMs + signMs + ltaMs) / count).toFixed(3),
  docsPerSecond: Math.round((count * 1000) / (renderMs + signMs + ltaMs)),
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
