import { describe, expect, it } from 'vitest';
import { classifyQrText } from '@/features/verification/qr-content';
import { decodeQrImage, QrNotFoundError } from '@/features/verification/qr-decode';
import { UnreadableImageError } from '@/features/verification/qr-pixels';
import { imageFile, qrPhoto, sharpPixels, signedDemoPayload } from '@/features/verification/qr-test-support';

const demo = await signedDemoPayload();
const link = `http://localhost:3000/verify/${demo.diplomaId}`;
const read = (bytes: Buffer, type = 'image/jpeg') => decodeQrImage(imageFile(bytes, 'photo', type), { readPixels: sharpPixels });

describe("a photo of a diploma's QR code", () => {
  it('reads the signed payload from a tilted, noisy, shadowed JPEG taken at an angle', async () => {
    const photo = await qrPhoto([demo.text], { rotate: 17, shear: 0.12, width: 1400, blur: 1.1, noise: 14, shadow: 0.35, quality: 70 });
    expect(await read(photo)).toBe(demo.text);
  });

  it('reads it from a small PNG (a screenshot or a forwarded picture) and upside down', async () => {
    expect(await read(await qrPhoto([demo.text], { width: 520, format: 'png' }), 'image/png')).toBe(demo.text);
    expect(await read(await qrPhoto([demo.text], { rotate: 180, width: 900, noise: 8 }))).toBe(demo.text);
  });

  it('reads one of the two codes when the photo holds both, and tells which kind it is', async () => {
    const photo = await qrPhoto([link, demo.text], { rotate: -8, width: 1600, noise: 10, blur: 0.8 });
    const text = await read(photo);
    expect([link, demo.text]).toContain(text);
    const content = classifyQrText(text);
    expect(content?.kind).toBe(text === link ? 'link' : 'signed');
    expect(classifyQrText(await read(await qrPhoto([link], { rotate: 33, width: 800, noise: 12 })))).toEqual({ kind: 'link', text: link, id: demo.diplomaId });
  });

  it('says that no QR code was found in a photo without one', async () => {
    const blank = await qrPhoto([], { width: 800, noise: 20, shadow: 0.5 });
    await expect(read(blank)).rejects.toBeInstanceOf(QrNotFoundError);
    // A QR code too blurred to read is "not found" as well, not a wrong text.
    await expect(read(await qrPhoto([demo.text], { width: 700, blur: 9 }))).rejects.toBeInstanceOf(QrNotFoundError);
  });

  it('says that a file which is not an image cannot be read', async () => {
    await expect(decodeQrImage(new File(['%PDF-1.7 not an image'], 'x.jpg', { type: 'image/jpeg' }), { readPixels: sharpPixels })).rejects.toBeInstanceOf(UnreadableImageError);
  });
});

describe('the content of a QR code', () => {
  it('is a diploma link only with a 22-character id after /verify/, and a signed payload only with SC1:', () => {
    expect(classifyQrText(`${demo.text}\r\n`)).toEqual({ kind: 'signed', text: demo.text });
    expect(demo.text).toContain(' '); // base45 has the space in its alphabet
    expect(classifyQrText(`https://sceau.gouv.cd/verify/${demo.diplomaId}/`)).toMatchObject({ kind: 'link', id: demo.diplomaId });
    expect(classifyQrText('https://example.com/menu')).toBeNull();
    expect(classifyQrText('https://sceau.gouv.cd/verify/short')).toBeNull();
    expect(classifyQrText(`javascript:alert(1)//verify/${demo.diplomaId}`)).toBeNull();
    expect(classifyQrText('WIFI:S:home;T:WPA;P:secret;;')).toBeNull();
    expect(classifyQrText('SC1:')).toBeNull();
    expect(classifyQrText('SC1:abc')).toBeNull();
  });
});
