import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { resources } from '@sceau/i18n';
import { describe, expect, it } from 'vitest';
import { MAX_PORTABLE_BYTES, pastedPortable } from '@/features/verification/portable-upload';
import { result } from '@/features/verification/verification-fixtures';
import type { VerificationCheck } from '@/features/verification/verification-api';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const VERIFY = 'POST /api/generations/verify';
const SD_JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJodHRwczovL2RpcGxvbWVzLmV4YW1wbGUuY2QifQ.c2lnbmF0dXJl~WyJzYWx0IiwiZmFtaWx5X25hbWUiLCJNVUtFTkRJIl0~';

const check = (name: string, code: string, title: string, message: string): VerificationCheck => ({ name, status: 'passed', code, title, message, details: null });

/** The server's answer to an SD-JWT VC: its own checks (type, validity) besides the usual ones. */
const sdJwtAnswer = () =>
  result('authentic', {
    source: 'sd-jwt',
    checks: [
      check('integrity', 'disclosures_match', 'Intégrité', 'Les informations dévoilées sont celles que le ministère a signées.'),
      check('issuer_signature', 'signature_valid', 'Signature du ministère', 'Signé avec la clé du ministère.'),
      check('issuer_identity', 'issuer_address_matches', "Identité de l'émetteur", 'Émis par le ministère attendu, à sa propre adresse.'),
      check('credential_type', 'type_matches', 'Type de justificatif', 'Un diplôme de ce ministère (son type de justificatif).'),
      check('validity_period', 'within_validity', 'Période de validité', 'Dans sa période de validité.'),
      check('not_revoked', 'not_revoked', 'Non révoqué', "Le diplôme n'a pas été révoqué."),
    ],
  });

function sentDocument(calls: { method: string; url: URL; init: RequestInit }[]): File {
  const call = calls.find((c) => c.method === 'POST' && c.url.pathname === '/api/generations/verify');
  expect(call).toBeDefined();
  const form = call!.init.body as FormData;
  expect(form.get('cert_url')).toBeNull();
  const file = form.get('cert_document');
  expect(file).toBeInstanceOf(File);
  return file as File;
}

describe('/verification of the portable forms (ADR 0145)', () => {
  it('sends an SD-JWT file as the document and shows its verdict and named checks', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(sdJwtAnswer()) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    expect(screen.getByText(/JSON W3C \/ Open Badges, ou SD-JWT/)).toBeInTheDocument();
    await user.upload(screen.getByLabelText('Document du diplôme'), new File([SD_JWT], 'diplome.sd-jwt', { type: '' }));
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    expect(sentDocument(calls).name).toBe('diplome.sd-jwt');
    expect(screen.getByText('Vérifié à partir du justificatif SD-JWT du diplôme.')).toBeInTheDocument();
    const checks = within(screen.getByTestId('verification-checks'));
    expect(checks.getAllByRole('listitem')).toHaveLength(6);
    expect(checks.getByText('Type de justificatif')).toBeInTheDocument();
    expect(checks.getByText('Période de validité')).toBeInTheDocument();
  });

  it('sends an SD-JWT pasted in the link field as a document, and names the source in English', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(sdJwtAnswer()) } });
    const { i18n } = await import('@/lib/i18n');
    await i18n.changeLanguage('en');
    const user = userEvent.setup();
    const field = await screen.findByLabelText("Diploma's link");
    await user.click(field);
    await user.paste(`  ${SD_JWT}\n`);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    const sent = sentDocument(calls);
    expect(sent.name).toBe('pasted.sd-jwt');
    expect(await sent.text()).toBe(SD_JWT);
    expect(screen.getByText("Verified from the diploma's SD-JWT credential.")).toBeInTheDocument();
    expect(within(screen.getByTestId('verification-checks')).getByText('Credential type')).toBeInTheDocument();
  });

  it('refuses an SD-JWT or a W3C VC over 256 KB before sending it, in French and in English', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(sdJwtAnswer()) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    const bigSdJwt = new File([`${SD_JWT}${'A'.repeat(MAX_PORTABLE_BYTES)}~`], 'diplome.sd-jwt');
    await user.upload(screen.getByLabelText('Document du diplôme'), bigSdJwt);
    expect(await screen.findByText('Ce justificatif dépasse 256 Ko : il ne peut pas être vérifié.')).toBeInTheDocument();
    expect(screen.queryByTestId('verification-file')).toBeNull();

    const { i18n } = await import('@/lib/i18n');
    await i18n.changeLanguage('en');
    const bigVc = new File([`{"@context":["https://www.w3.org/ns/credentials/v2"],"x":"${'a'.repeat(MAX_PORTABLE_BYTES)}"}`], 'diploma.json', { type: 'application/json' });
    await user.upload(screen.getByLabelText("Diploma's document"), bigVc);
    expect(await screen.findByText('This credential is larger than 256 KB: it cannot be verified.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('refuses a pasted SD-JWT over 256 KB on the link field, and keeps a large platform credential file', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('authentic', { source: 'credential' })) } });
    const user = userEvent.setup();
    const field = await screen.findByLabelText('Lien du diplôme');
    await user.click(field);
    await user.paste(`${SD_JWT}${'A'.repeat(MAX_PORTABLE_BYTES)}~`);
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('Ce justificatif dépasse 256 Ko : il ne peut pas être vérifié.')).toHaveAttribute('id', 'verify-link-error');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    // The platform's own credential document is not a portable form: its 5 MB bound applies.
    await user.click(screen.getByLabelText('Document'));
    const document = new File([`{"version":"sceau-credential/2","pad":"${'a'.repeat(MAX_PORTABLE_BYTES)}"}`], 'diplome.json', { type: 'application/json' });
    await user.upload(screen.getByLabelText('Document du diplôme'), document);
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(sentDocument(calls).name).toBe('diplome.json');
  });

  it('shows the key binding as its own check, apart from the ministry signature: another key failed, the signature passed (French, then English)', async () => {
    const { fr, en } = resources;
    const answer = result('altered', {
      source: 'sd-jwt',
      checks: [
        check('issuer_signature', 'signature_valid', fr.verification.check.issuer_signature, fr.verification.code.signature_valid),
        { ...check('key_binding', 'key_binding_wrong_key', fr.verification.check.key_binding, fr.verification.code.key_binding_wrong_key), status: 'failed' },
      ],
    });
    renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(answer) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    await user.upload(screen.getByLabelText('Document du diplôme'), new File([SD_JWT], 'diplome.sd-jwt', { type: '' }));
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'altered');
    const list = screen.getByTestId('verification-checks');
    const binding = list.querySelector('[data-check="key_binding"]') as HTMLElement;
    expect(binding).toHaveAttribute('data-status', 'failed');
    expect(binding).toHaveAttribute('data-code', 'key_binding_wrong_key');
    expect(within(binding).getByText('Liaison au porteur (clé du détenteur)')).toBeInTheDocument();
    expect(list.querySelector('[data-check="issuer_signature"]')).toHaveAttribute('data-status', 'passed');

    const { i18n } = await import('@/lib/i18n');
    await i18n.changeLanguage('en');
    expect(await within(binding).findByText("Key binding (holder's key)")).toBeInTheDocument();
    expect(within(binding).getByText(en.verification.code.key_binding_wrong_key)).toBeInTheDocument();
  });

  it('tells a pasted portable form from a link', () => {
    expect(pastedPortable(`https://diplomes.example.cd/verify/AAAAAAAAAAAAAAAAAAAAAA`)).toBeNull();
    expect(pastedPortable('SC1:6BFOXN*TS0')).toBeNull();
    expect(pastedPortable('{"@context":["https://www.w3.org/ns/credentials/v2"],"type":["VerifiableCredential"]}')).toBeInstanceOf(File);
    expect(pastedPortable('{"id":"x"}')).toBeNull();
  });
});
