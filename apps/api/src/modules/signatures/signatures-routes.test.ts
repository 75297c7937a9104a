import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
let admin: Record<string, string>;
let root: Record<string, string>;

/** A black stroke on white paper, like a scanned signature. */
async function scannedSignature(format: 'png' | 'jpeg', width = 600, height = 200): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/><path d="M40 150 C 120 20, 200 180, 300 60 S 480 160, 560 40" stroke="#10204a" stroke-width="8" fill="none"/></svg>`;
  return sharp(Buffer.from(svg))[format]().toBuffer();
}

function multipart(fields: Record<string, string>, file?: { name: string; filename: string; type: string; data: Buffer }) {
  const boundary = '----sceau-test-boundary';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    chunks.push(file.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(headers: Record<string, string>, fields: Record<string, string>, image?: Buffer, type = 'image/png') {
  const body = multipart(fields, image ? { name: 'image', filename: 'signature', type, data: image } : undefined);
  return ctx.app.inject({ method: 'POST', url: '/api/signatures', headers: { ...headers, ...body.headers }, payload: body.payload });
}

beforeAll(async () => {
  ctx = await createTestApp();
  admin = { authorization: `Bearer ${await signIn(ctx, 'admin@sceau.example')}` };
  root = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
});
afterAll(() => ctx.close());

describe('official signatures', () => {
  it('starts empty, then shows an uploaded signature with a transparent background', async () => {
    const empty = await ctx.app.inject({ method: 'GET', url: '/api/signatures/state', headers: admin });
    expect(empty.json().data).toEqual({ ministry: null, inspector_general: null, jury: null });

    const res = await upload(admin, { kind: 'ministry', name: 'Raïssa Malu', title: "Ministre de l'Éducation nationale" }, await scannedSignature('jpeg'), 'image/jpeg');
    expect(res.statusCode).toBe(200);
    const state = (await ctx.app.inject({ method: 'GET', url: '/api/signatures/state', headers: admin })).json().data;
    expect(state.ministry).toMatchObject({ kind: 'ministry', name: 'Raïssa Malu', title: "Ministre de l'Éducation nationale", updated_by: 'Jean-Pierre Kabila' });

    const image = await ctx.app.inject({ method: 'GET', url: state.ministry.image_url, headers: admin });
    expect(image.headers['content-type']).toBe('image/png');
    const { data, info } = await sharp(image.rawPayload).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    // The paper is gone (transparent corners), the ink is kept (some opaque pixels), margins trimmed.
    expect(data[3]).toBe(0);
    let opaque = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 200) opaque++;
    expect(opaque).toBeGreaterThan(500);
    expect(info.width).toBeLessThan(600);
  });

  it('replaces a signature (signatures.edit) and removes it (signatures.delete, root only)', async () => {
    await upload(admin, { kind: 'jury', name: 'Jean Mbala', title: 'Président du jury' }, await scannedSignature('png'));
    const replaced = await upload(admin, { kind: 'jury', name: 'Jeanne Mbala', title: 'Présidente du jury' }, await scannedSignature('png', 500, 180));
    expect(replaced.statusCode).toBe(200);
    const state = (await ctx.app.inject({ method: 'GET', url: '/api/signatures/state', headers: admin })).json().data;
    expect(state.jury.name).toBe('Jeanne Mbala');
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/signatures/jury', headers: admin })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/signatures/jury', headers: root })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/signatures/state', headers: root })).json().data.jury).toBeNull();
  });

  it('checks the image by its content, its size and its fields', async () => {
    const en = { ...admin, 'x-locale': 'en' };
    const fake = await upload(en, { kind: 'jury', name: 'Jean Mbala', title: 'Président' }, Buffer.from('%PDF-1.7 not an image'), 'image/png');
    expect(fake.statusCode).toBe(422);
    expect(fake.json().errors.image).toEqual(['The image must be a PNG or JPEG file']);

    const huge = await upload(en, { kind: 'jury', name: 'Jean Mbala', title: 'Président' }, Buffer.alloc(3 * 1024 * 1024, 1), 'image/png');
    expect(huge.statusCode).toBe(422);
    expect(huge.json().errors.image).toEqual(['The image must not exceed 2 MB']);

    const fields = await upload(en, { kind: 'recteur', name: 'J', title: '' }, await scannedSignature('png'));
    expect(fields.statusCode).toBe(422);
    expect(Object.keys(fields.json().errors).sort()).toEqual(['kind', 'name', 'title']);

    const missing = await upload(en, { kind: 'jury', name: 'Jean Mbala', title: 'Président' });
    expect(missing.json().errors.image).toEqual(['A file is required']);
    // Nothing was written by the failures.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/signatures/state', headers: admin })).json().data.jury).toBeNull();
  });

  it('refuses roles without the signatures section on the server', async () => {
    const validateur = { authorization: `Bearer ${await signIn(ctx, 'validateur@sceau.example')}` };
    expect((await ctx.app.inject({ method: 'GET', url: '/api/signatures/state', headers: validateur })).statusCode).toBe(403);
    const res = await upload(validateur, { kind: 'ministry', name: 'Intrus', title: 'Intrus' }, await scannedSignature('png'));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Accès non autorisé');
  });
});
