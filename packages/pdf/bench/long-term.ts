// The cost of PAdES B-LTA per diploma with the local TSA (ADR 0135), measured against B-B on the
// same rendered PDFs, interleaved round by round so that the machine's load weighs on both alike.
// Usage: node --import tsx bench/long-term.ts [--count 400]
import { performance } from 'node:perf_hooks';
import {
  addDocumentTimestamp,
  addValidationData,
  createCertificateRevocationList,
  createDevelopmentPki,
  createDevelopmentTsa,
  createDiplomaRenderer,
  createKeySigner,
  createLocalTimeStampAuthority,
  diplomeEtatTemplate,
  preparePhoto,
  signPdf,
} from '../src/index.ts';
import { createTestPhoto, createTestSignatureImages, testCredentialJson, testFields, testOfflinePayload } from '../src/test-fixtures.ts';

const args = process.argv.slice(2);
const countArg = args.indexOf('--count');
const count = Number(countArg >= 0 ? args[countArg + 1] : 400);

const renderer = await createDiplomaRenderer({ template: diplomeEtatTemplate, signatureImages: await createTestSignatureImages() });
const pki = await createDevelopmentPki();
const ca = { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem };
const tsaPki = await createDevelopmentTsa({ ca });
const tsa = createLocalTimeStampAuthority({ signer: createKeySigner({ privateKey: tsaPki.privateKeyPem, certificateChainDer: tsaPki.certificateChainDer }) });
const crl = await createCertificateRevocationList({ ca, revoked: [], thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 7 * 86400e3), crlNumber: 1 });
const validation = { certificates: [...pki.certificateChainDer, tsaPki.certificateDer], crls: [crl] };
const signer = createKeySigner({ privateKey: pki.signingPrivateKeyPem, certificateChainDer: pki.certificateChainDer });
const photo = await preparePhoto(await createTestPhoto(1), renderer.template.photo);

const unsigned = await Promise.all(
  Array.from({ length: 20 }, (_, i) => {
    const fields = testFields({ diplomaNumber: `DE-2025-${String(i).padStart(7, '0')}` });
    return renderer.render(fields, photo, { verifyUrl: `https://sceau.example.cd/verify/${i}`, offlinePayload: testOfflinePayload() }, testCredentialJson(fields));
  }),
);

const totals = { bb: 0, bt: 0, dss: 0, docTimestamp: 0, token: 0 };
let bytesBb = 0;
let bytesLta = 0;
const round = async (measure: boolean) => {
  for (let i = 0; i < unsigned.length; i++) {
    const pdf = unsigned[i]!;
    const prefix = renderer.hashedPrefix();
    const a = performance.now();
    const bb = await signPdf(pdf, signer, { hashedPrefix: prefix });
    const b = performance.now();
    const bt = await signPdf(pdf, signer, { hashedPrefix: prefix, timestamper: tsa });
    const c = performance.now();
    const lt = addValidationData(bt, validation);
    const d = performance.now();
    const lta = await addDocumentTimestamp(lt, tsa, { hashedPrefix: prefix });
    const e = performance.now();
    await tsa.timestamp(bb.subarray(0, 32));
    const f = performance.now();
    if (!measure) continue;
    totals.bb += b - a;
    totals.bt += c - b;
    totals.dss += d - c;
    totals.docTimestamp += e - d;
    totals.token += f - e;
    bytesBb += bb.length;
    bytesLta += lta.length;
  }
};
for (let i = 0; i < 3; i++) await round(false); // warm-up
const rounds = Math.max(1, Math.round(count / unsigned.length));
for (let i = 0; i < rounds; i++) await round(true);
const n = rounds * unsigned.length;
const per = (ms: number) => +(ms / n).toFixed(3);
const result = {
  documents: n,
  signBbMs: per(totals.bb),
  signBtMs: per(totals.bt),
  dssMs: per(totals.dss),
  documentTimestampMs: per(totals.docTimestamp),
  tokenAloneMs: per(totals.token),
  addedMsPerDiploma: per(totals.bt + totals.dss + totals.docTimestamp - totals.bb),
  addedKbPerDiploma: +((bytesLta - bytesBb) / n / 1024).toFixed(1),
  node: process.version,
};
console.log(
  `B-B sign ${result.signBbMs} ms; B-T sign ${result.signBtMs} ms, DSS ${result.dssMs} ms, document time-stamp ${result.documentTimestampMs} ms (a token alone ${result.tokenAloneMs} ms): B-LTA adds ${result.addedMsPerDiploma} ms and ${result.addedKbPerDiploma} KB per diploma on one core`,
);
console.log(JSON.stringify(result));
