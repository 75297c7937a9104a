import type { GenerationAbilities, GenerationItemView, GenerationView, PageMeta } from '@sceau/contracts';

/**
 * What the signed-in user may do on a batch, as the API sends it: nothing but `overrides`. Tests
 * say what the server answered; the web only reads it (it no longer derives it from roles or status).
 */
export function makeAbilities(overrides: Partial<GenerationAbilities> = {}): GenerationAbilities {
  return {
    view: false,
    import_list: false,
    add_photos: false,
    validate_photos: false,
    validate_data: false,
    view_rejected: false,
    launch: false,
    sign: false,
    cancel: false,
    download_all: false,
    download_one: false,
    share_by_email: false,
    broadcast: false,
    revoke: false,
    preview: false,
    view_history: false,
    ...overrides,
  };
}

/** A batch as the API presents it: a published Diplôme d'État batch, that the user may only view, unless overridden. */
export function makeGeneration(overrides: Partial<GenerationView> = {}): GenerationView {
  return {
    id: 12,
    type: 'diplome_etat',
    title: 'Kinshasa-Est 2025',
    template_id: 1,
    session: { id: 3, name: 'Session 2025' },
    province: { id: 5, name: 'Kinshasa-Est' },
    institution: null,
    centre: null,
    option: null,
    status: 'completed',
    signature_status: 'finished',
    progress: { done: 2, total: 2 },
    counts: { items: 2, rejected: 0, diplomas: 2 },
    merkle_root: 'ab'.repeat(32),
    anchor: {
      chain_id: 31337,
      contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      tx_hash: `0x${'c4'.repeat(32)}`,
      block_number: 42,
      anchored_at: '2026-03-02T10:30:00.000Z',
    },
    last_error: null,
    created_at: '2026-03-01T08:00:00.000Z',
    published_at: '2026-03-02T10:30:00.000Z',
    revoked_at: null,
    revocation_reason: null,
    abilities: makeAbilities({ view: true }),
    refusals: {},
    ...overrides,
  };
}

let nextItemId = 100;

/** A candidate with an issued diploma unless overridden. */
export function makeItem(overrides: Partial<GenerationItemView> = {}): GenerationItemView {
  const id = overrides.id ?? nextItemId++;
  return {
    id,
    candidate_code: `1234567890${String(id).padStart(4, '0')}`,
    last_name: 'MUKENDI',
    middle_name: 'KABONGO',
    first_name: 'Aline',
    birth_date: '2006-05-14',
    birth_place: 'Kinshasa',
    gender: 'F',
    option: { id: 1, name: 'Scientifique' },
    institution: { id: 21, name: 'Institut Bosangani' },
    centre: { id: 31, name: 'Centre Gombe' },
    percentage: 72.5,
    photo_status: 'validated',
    data_status: 'validated',
    rejected: false,
    rejection_reason: null,
    diploma: { id: `Dpl${String(id).padStart(19, '0')}`, serial: null, has_pdf: true, revoked: false, downloads: 0 },
    ...overrides,
  };
}

export function pageMeta(total: number, perPage = 20, page = 1): PageMeta {
  return { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total };
}
