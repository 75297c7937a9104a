// Appending incremental updates to a signed diploma: earlier bytes unchanged, the xref chain read
// back through /Prev, and poppler still validating the earlier signature over its own revision.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeySigner } from './cms.ts';
import { diplomeEtatTemplate } from './default-template.ts';
import { createDevelopmentPki } from './dev-pki.ts';
import { IncrementalUpdate, appendIncrementalUpdate, readCrossReference, readDictionaryObject } from './incremental.ts';
import { verifyPdfSignature } from './pades.ts';
import { createDiplomaRenderer } from './renderer.ts';
import { createTestPhoto, createTestSignatureImages, testCredentialJson, testFields, testOfflinePayload } from './test-fixtures.ts';
import { preparePhoto } from './images.ts';

let dir: string;
let signed: Uint8Array;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sceau-incremental-'));
  const pki = await createDevelopmentPki();
  const signer = createKeySigner({ privateKey: pki.signingPrivateKeyPem, certificateChainDer: pki.certificateChainDer });
  const renderer = await createDiplomaRenderer({ template: diplomeEtatTemplate, signatureImages: await createTestSignatureImages() });
  const photo = await preparePhoto(await createTestPhoto(), renderer.template.photo);
  const qr = { verifyUrl: 'https://sceau.example.cd/verify/x', offlinePayload: testOfflinePayload() };
  signed = await renderer.renderSigned(testFields(), photo, qr, testCredentialJson(testFields()), signer);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('incremental update', () => {
  it('appends objects, a new xref section and a trailer with /Prev, leaving every earlier byte as it was', () => {
    const before = readCrossReference(signed);
    const update = new IncrementalUpdate(signed);
    const stream = update.allocate();
    const dict = update.allocate();
    update.setStream(stream, '', Buffer.from('hello'));
    update.setObject(dict, `<< /Type /Test /Data ${stream} 0 R >>`);
    const catalog = update.dictionary(before.root);
    update.setObject(before.root, `${catalog.slice(0, -2)} /Test ${dict} 0 R >>`);
    const { pdf, objects } = update.finish();

    expect(Buffer.from(pdf.subarray(0, signed.length))).toEqual(Buffer.from(signed));
    const after = readCrossReference(pdf);
    expect(after.size).toBe(before.size + 2);
    expect(after.trailer).toContain(`/Prev ${before.startxref}`);
    expect(after.offsets.get(before.root)).toBe(objects.get(before.root)!.offset);
    expect(readDictionaryObject(pdf, after, before.root)).toContain(`/Test ${dict} 0 R`);
    expect(readDictionaryObject(pdf, after, dict)).toBe(`<< /Type /Test /Data ${stream} 0 R >>`);
    // Objects untouched by the update keep their old offsets.
    for (const [n, offset] of before.offsets) if (!objects.has(n)) expect(after.offsets.get(n)).toBe(offset);

    // The signature still verifies over its own revision, which no longer ends the file.
    expect(verifyPdfSignature(pdf)).toMatchObject({ intact: true, coversWholeFile: false });
    const file = join(dir, 'updated.pdf');
    writeFileSync(file, pdf);
    const out = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    expect(out.stdout).toContain('Signature is Valid.');
    expect(out.stdout).not.toContain('Total document signed');
  });

  it('appendIncrementalUpdate allocates numbers above /Size and chains several updates', () => {
    const first = readCrossReference(signed);
    const one = appendIncrementalUpdate(signed, new Map([[first.size, '[1 2 3]']])).pdf;
    const two = appendIncrementalUpdate(one, new Map([[first.size + 1, '(second)']])).pdf;
    const chain = readCrossReference(two);
    expect(chain.size).toBe(first.size + 2);
    expect(chain.offsets.has(first.size)).toBe(true);
    expect(chain.offsets.has(first.size + 1)).toBe(true);
  });

  it('refuses an object number it did not allocate and a looping xref chain', () => {
    const update = new IncrementalUpdate(signed);
    expect(() => update.setObject(update.xref.size + 5, '1')).toThrow(/neither in the PDF nor allocated/);
    const looping = Buffer.from('%PDF-1.7\nxref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 1 /Root 1 0 R /Prev 9 >>\nstartxref\n9\n%%EOF\n');
    expect(() => readCrossReference(looping)).toThrow(/loops/);
  });
});
