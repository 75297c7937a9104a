// Renders and signs real diplomas and checks them with tools that share no code with ours:
// poppler's pdfsig, pdftotext and pdftoppm, OpenSSL's CMS verifier, and a QR decoder on the pixels.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import decodeQR from 'qr/decode.js';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractAttachment } from './attachment.ts';
import { createKeySigner, type Signer } from './cms.ts';
import { diplomeEtatTemplate } from './default-template.ts';
import { createDevelopmentPki, type DevelopmentPki } from './dev-pki.ts';
import { preparePhoto } from './images.ts';
import { signPdf, verifyPdfSignature } from './pades.ts';
import { CREDENTIAL_ATTACHMENT_NAME, createDiplomaRenderer, type DiplomaRenderer } from './renderer.ts';
import { parseDiplomaTemplate, titleInSentence } from './template.ts';
import { createTestPhoto, createTestSignatureImages, testCredentialJson, testFields, testOfflinePayload } from './test-fixtures.ts';

let dir: string;
let pki: DevelopmentPki;
let signer: Signer;
let renderer: DiplomaRenderer;
let photo: Uint8Array;
let signed: Uint8Array;
let credential: Uint8Array;
const qr = { verifyUrl: 'https://sceau.example.cd/verify/q3Yb1mJk2Vx8Zr4tN6pL0w', offlinePayload: testOfflinePayload() };

function save(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

function run(tool: string, ...args: string[]): string {
  const result = spawnSync(tool, args, { encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sceau-pdf-'));
  pki = await createDevelopmentPki();
  signer = createKeySigner({ privateKey: pki.signingPrivateKeyPem, certificateChainDer: pki.certificateChainDer });
  renderer = await createDiplomaRenderer({ template: diplomeEtatTemplate, signatureImages: await createTestSignatureImages() });
  photo = await preparePhoto(await createTestPhoto(), renderer.template.photo);
  credential = testCredentialJson(testFields());
  signed = await renderer.renderSigned(testFields(), photo, qr, credential, signer, { reason: "Diplôme d'État", location: 'Kinshasa' });
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('signed diploma', () => {
  it('is reported valid and wholly signed by pdfsig', () => {
    const out = run('pdfsig', save('signed.pdf', signed));
    expect(out).toContain('Signature Type: ETSI.CAdES.detached');
    expect(out).toContain('Signature is Valid.');
    expect(out).toContain('Total document signed');
    expect(out).toContain('Sceau Diploma Signing (development)');
  });

  it('hashes the shared prefix once per renderer: signatures made from it verify, and it is really used', async () => {
    const unsigned = await renderer.render(testFields(), photo, qr, credential);
    const { length, hash } = renderer.hashedPrefix();
    expect(hash.digest('hex')).toBe(createHash('sha256').update(unsigned.subarray(0, length)).digest('hex'));
    const viaPrefix = await signPdf(unsigned, signer, { hashedPrefix: renderer.hashedPrefix() });
    expect(verifyPdfSignature(viaPrefix)).toMatchObject({ intact: true, digestOk: true, signatureOk: true });
    // A prefix state that is not the PDF's gives a digest that does not match.
    const wrong = { length, hash: createHash('sha256').update(new Uint8Array(length)) };
    expect(verifyPdfSignature(await signPdf(unsigned, signer, { hashedPrefix: wrong })).digestOk).toBe(false);
  });

  it('passes our own verification with the embedded certificate', () => {
    const check = verifyPdfSignature(signed);
    expect(check).toMatchObject({ intact: true, coversWholeFile: true, digestOk: true, signatureOk: true });
    expect(Buffer.from(check.signerCertificateDer!)).toEqual(Buffer.from(pki.signingCertificateDer));
  });

  it('carries a CMS that OpenSSL verifies against the development CA', () => {
    const text = Buffer.from(signed).toString('latin1');
    const [, a, b, c, d] = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)/.exec(text)!.map(Number) as number[];
    const hexContents = text.slice(b! + 1, c! - 1).replace(/(00)+$/, '');
    const signedBytes = Buffer.concat([Buffer.from(signed.subarray(a!, a! + b!)), Buffer.from(signed.subarray(c!, c! + d!))]);
    const out = run(
      'openssl',
      'cms',
      '-verify',
      '-binary',
      '-inform',
      'DER',
      '-in',
      save('sig.der', Buffer.from(hexContents.length % 2 ? `${hexContents}0` : hexContents, 'hex')),
      '-content',
      save('content.bin', signedBytes),
      '-CAfile',
      save('ca.pem', Buffer.from(pki.caCertificatePem)),
      '-purpose',
      'any',
      '-out',
      join(dir, 'out.bin'),
    );
    expect(out).toContain('Verification successful');
    const printed = run('openssl', 'cms', '-cmsout', '-print', '-inform', 'DER', '-in', join(dir, 'sig.der'));
    expect(printed).toContain('id-smime-aa-signingCertificateV2');
    expect(printed).toContain('messageDigest');
    expect(printed).not.toContain('signingTime');
  });

  it('shows the accented texts exactly to pdftotext', () => {
    const text = execFileSync('pdftotext', [save('text.pdf', signed), '-'], { encoding: 'utf8' });
    expect(text).toContain('Ngalula Kabamba Élodie');
    expect(text).toContain('Électricité');
    expect(text).toContain('Maï-Ndombe');
    expect(text).toContain('RÉPUBLIQUE DÉMOCRATIQUE DU CONGO');
    expect(text).toContain("Ministère de l'Éducation nationale");
    expect(text).toContain("DIPLÔME D'ÉTAT");
    expect(text).toContain('avec 68,4 % des points');
    // The wording agrees with the candidate and with the signatory's title (issue 15 item 9).
    expect(text).toContain('née à Inongo (Maï-Ndombe), le 14 février 2007');
    expect(text).not.toContain('né(e)');
    expect(text).toContain("Vu les résultats de l'Examen d'État, le Ministre atteste que");
  });

  it('draws a watermark across a specimen, over everything, and leaves it unsigned', async () => {
    const pdf = await renderer.render(testFields({ diplomaNumber: 'SPÉCIMEN' }), photo, qr, new TextEncoder().encode('{}'), { watermark: 'SPÉCIMEN' });
    const file = save('specimen.pdf', pdf);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain('SPÉCIMEN');
    expect(text).toContain('Ngalula Kabamba Élodie');
    expect(Buffer.from(pdf).toString('latin1')).toMatch(/\/ExtGState << \/GSW << \/ca 0\.35 >> >>/);
    expect(run('pdfsig', file)).toMatch(/does not contain any signatures/);
    // Rendered, the page is visibly redder than the plain diploma (the mark is drawn, not hidden under the design).
    const redness = async (bytes: Uint8Array, name: string) => {
      const root = join(dir, name.replace(/\.pdf$/, ''));
      execFileSync('pdftoppm', ['-png', '-r', '30', '-singlefile', save(name, bytes), root]);
      const { data, info } = await sharp(`${root}.png`).raw().toBuffer({ resolveWithObject: true });
      let sum = 0;
      for (let i = 0; i < data.length; i += info.channels) sum += data[i]! - data[i + 1]!;
      return sum / (data.length / info.channels);
    };
    const plain = await renderer.render(testFields(), photo, qr, credential);
    expect(await redness(pdf, 'specimen-page.pdf')).toBeGreaterThan((await redness(plain, 'plain-page.pdf')) + 1);
  });

  it('names the ministry signatory in the attestation as its signature is titled', async () => {
    const design = structuredClone(diplomeEtatTemplate);
    for (const box of design.signatures) if (box.role === 'ministry') box.title = 'La Ministre';
    const own = await createDiplomaRenderer({ template: design, signatureImages: await createTestSignatureImages() });
    const pdf = await own.renderSigned(testFields({ born: 'né', name: 'Mukendi Tshibangu Josué' }), photo, qr, credential, signer);
    const text = execFileSync('pdftotext', [save('title.pdf', pdf), '-'], { encoding: 'utf8' });
    expect(text).toContain("Vu les résultats de l'Examen d'État, la Ministre atteste que");
    expect(text).toContain('La Ministre');
    expect(text).toMatch(/\bné à Inongo/);
    expect(text).not.toContain('le Ministre');
  });

  it('carries the credential as an extractable attachment', async () => {
    expect(Buffer.from((await extractAttachment(signed, CREDENTIAL_ATTACHMENT_NAME))!)).toEqual(Buffer.from(credential));
    expect(await extractAttachment(signed, 'other.json')).toBeNull();
    const listed = run('pdfdetach', '-list', save('attach.pdf', signed));
    expect(listed).toContain('credential.json');
  });

  it('weighs at most 150 KB with a real-size photo', () => {
    expect(photo.length).toBeGreaterThan(8_000);
    expect(signed.length).toBeLessThanOrEqual(150 * 1024);
  });

  it('prints QR codes that decode back from the rendered page', async () => {
    save('qr.pdf', signed);
    execFileSync('pdftoppm', ['-r', '150', '-gray', '-png', join(dir, 'qr.pdf'), join(dir, 'page')]);
    const page = join(dir, 'page-1.png');
    const pxPerMm = 150 / 25.4;
    const decodeBox = async (box: { x: number; y: number; size: number }) => {
      const margin = 3;
      const { data, info } = await sharp(page)
        .extract({
          left: Math.round((box.x - margin) * pxPerMm),
          top: Math.round((box.y - margin) * pxPerMm),
          width: Math.round((box.size + 2 * margin) * pxPerMm),
          height: Math.round((box.size + 2 * margin) * pxPerMm),
        })
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true });
      return decodeQR({ width: info.width, height: info.height, data }, { format: 'RGB' });
    };
    expect(await decodeBox(renderer.template.qr.verify)).toBe(qr.verifyUrl);
    expect(await decodeBox(renderer.template.qr.offline)).toBe(qr.offlinePayload);
  });

  it('is caught by pdfsig and by verifyPdfSignature when one byte changes', () => {
    const changed = Uint8Array.from(signed);
    // A byte in the middle of the page's shared part (fonts, template).
    changed[Math.floor(renderer.sharedBytes / 2)]! ^= 0x01;
    expect(run('pdfsig', save('changed.pdf', changed))).not.toContain('Signature is Valid.');
    expect(verifyPdfSignature(changed)).toMatchObject({ intact: false, digestOk: false });

    const text = Buffer.from(signed).toString('latin1');
    const inContents = text.indexOf('/Contents <') + 40;
    const forged = Uint8Array.from(signed);
    forged[inContents] = forged[inContents] === 0x41 ? 0x42 : 0x41;
    expect(run('pdfsig', save('forged.pdf', forged))).not.toContain('Signature is Valid.');
    expect(verifyPdfSignature(forged).intact).toBe(false);
  });

  it('says when bytes were appended after signing', () => {
    const appended = Buffer.concat([Buffer.from(signed), Buffer.from('\n% appended\n')]);
    expect(verifyPdfSignature(appended)).toMatchObject({ intact: true, coversWholeFile: false });
    expect(run('pdfsig', save('appended.pdf', appended))).not.toContain('Total document signed');
  });
});

describe('renderer', () => {
  it('reuses the shared part byte for byte across documents', async () => {
    const other = await renderer.render(testFields({ name: 'Mukendi Tshibangu Josué', diplomaNumber: 'DE-2025-0000002' }), photo, qr, credential);
    const shared = renderer.sharedBytes;
    expect(Buffer.from(other.subarray(0, shared))).toEqual(Buffer.from(signed.subarray(0, shared)));
    expect(execFileSync('pdftotext', [save('other.pdf', other), '-'], { encoding: 'utf8' })).toContain('Mukendi Tshibangu Josué');
    expect(verifyPdfSignature(other)).toMatchObject({ intact: false, problem: 'no signature' });
  });

  it('draws rare letters with a supplement font and normalises decomposed accents', async () => {
    const fields = testFields({ name: 'Łukasz Wróbel Ğülşen', birthPlace: 'Mbandaka (E\u0301quateur)', diplomaNumber: 'DE-2025-0000003' });
    const before = renderer.stats.supplementFonts;
    const pdf = await signPdf(await renderer.render(fields, photo, qr, credential), signer);
    expect(renderer.stats.supplementFonts).toBe(before + 1);
    const text = execFileSync('pdftotext', [save('rare.pdf', pdf), '-'], { encoding: 'utf8' });
    expect(text).toContain('Łukasz Wróbel Ğülşen');
    expect(text).toContain('Mbandaka (Équateur)');
    expect(run('pdfsig', join(dir, 'rare.pdf'))).toContain('Signature is Valid.');
  });

  it('re-encodes an oversized photo to fit the box', async () => {
    const raw = await createTestPhoto(2);
    const before = renderer.stats.photosResized;
    const pdf = await renderer.render(testFields(), raw, qr, credential);
    expect(renderer.stats.photosResized).toBe(before + 1);
    expect(pdf.length).toBeLessThan(150 * 1024);
  });

  it('signs with an RSA-2048 certificate too', async () => {
    const rsa = await createDevelopmentPki({ signerKey: 'RSA-2048' });
    const rsaSigner = createKeySigner({ privateKey: rsa.signingPrivateKeyPem, certificateChainDer: rsa.certificateChainDer });
    const pdf = await renderer.renderSigned(testFields(), photo, qr, credential, rsaSigner);
    expect(run('pdfsig', save('rsa.pdf', pdf))).toContain('Signature is Valid.');
    expect(verifyPdfSignature(pdf).intact).toBe(true);
  });
});

describe('signature edge cases', () => {
  it('answers "not intact" without throwing on a malformed signature', () => {
    expect(verifyPdfSignature(Buffer.from('%PDF-1.7\n/ByteRange [0 10 20 30] /Contents <00>'))).toMatchObject({ intact: false });
    expect(verifyPdfSignature(Buffer.from('%PDF-1.7\n'))).toMatchObject({ intact: false, problem: 'no signature' });
  });

  it('refuses to sign a PDF it cannot update safely', async () => {
    const document = await PDFDocument.create();
    document.addPage();
    const withObjectStreams = await document.save({ useObjectStreams: true });
    await expect(signPdf(withObjectStreams, signer)).rejects.toThrow(/cross-reference streams/);
  });
});

describe('template', () => {
  it('survives a JSON round trip (a template is data)', () => {
    const parsed = parseDiplomaTemplate(JSON.parse(JSON.stringify(diplomeEtatTemplate)));
    expect(parsed.fields.length).toBeGreaterThan(5);
    expect(parsed.signatures.map((s) => s.role).sort()).toEqual(['inspectorGeneral', 'juryPresident', 'ministry']);
  });

  it('rejects a value in the static design that the template does not give', () => {
    const broken = { ...diplomeEtatTemplate, background: [{ type: 'text', text: '{name} atteste', x: 10, y: 10, style: { font: 'regular', size: 10 } }] };
    expect(() => parseDiplomaTemplate(broken)).toThrow(/unknown template value \{name\}/);
  });

  it('puts a signatory title in the middle of a sentence', () => {
    expect(titleInSentence('La Ministre')).toBe('la Ministre');
    expect(titleInSentence('Le Ministre de l’Éducation nationale')).toBe('le Ministre de l’Éducation nationale');
    expect(titleInSentence("L'Inspectrice Générale")).toBe("l'Inspectrice Générale");
    expect(titleInSentence('  Ministre  d’État ')).toBe('le Ministre d’État');
    expect(titleInSentence('Lauréate')).toBe('le Lauréate');
    expect(titleInSentence('')).toBe('le Ministre');
  });

  it('rejects a field placeholder that does not exist', () => {
    const broken = { ...diplomeEtatTemplate, fields: [{ text: 'Né le {birthday}', x: 10, y: 10, style: { font: 'regular', size: 10 } }] };
    expect(() => parseDiplomaTemplate(broken)).toThrow(/unknown field \{birthday\}/);
  });
});
