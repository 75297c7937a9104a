import type { TemplateView } from '@sceau/contracts';
import { jsonResponse } from '@/test/fixtures';

/** A design shaped like packages/pdf's page model, small enough for tests. */
export function makeDesign(navy = '#1d3461') {
  return {
    id: 'cd-diplome-etat',
    name: "Diplôme d'État",
    version: 1,
    page: { width: 297, height: 210, paper: '#fffdf7' },
    background: [
      { type: 'border', inset: 7, band: 9, color: navy, accent: '#b08a36', waves: 4 },
      { type: 'text', text: 'RÉPUBLIQUE DÉMOCRATIQUE DU CONGO', x: 78, y: 30, style: { font: 'display', size: 11.5, color: navy, align: 'center' } },
      { type: 'text', text: "DIPLÔME D'ÉTAT", x: 148.5, y: 68, style: { font: 'display', size: 34, color: navy, align: 'center' } },
    ],
    fields: [],
    photo: { x: 25, y: 54, w: 32, h: 41, frame: '#b08a36' },
    signatures: [{ role: 'ministry', x: 181, y: 167, w: 46, h: 15, title: 'Le Ministre', signerName: 'X' }],
    qr: { verify: { x: 247, y: 152, size: 27 }, offline: { x: 22, y: 145, size: 38 } },
  };
}

export const countryTemplate: TemplateView = {
  id: 1,
  name: "Diplôme d'État",
  owner: { type: 'country', id: 1, name: 'République démocratique du Congo', key: '1_country' },
  generation_type: 'diplome_etat',
  based_on_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

export const schoolTemplate: TemplateView = {
  id: 2,
  name: "Diplôme d'État — Lycée Lumière",
  owner: { type: 'institution', id: 21, name: 'Lycée Lumière', key: '21_institution' },
  generation_type: 'diplome_etat',
  based_on_id: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

/** Templates, types, sessions and provinces as the API answers them. */
export function issuingRoutes() {
  return {
    'GET /api/templates/drc': () => jsonResponse({ data: { ...countryTemplate, design: makeDesign() } }),
    'GET /api/templates/1': () => jsonResponse({ data: { ...countryTemplate, design: makeDesign() } }),
    'GET /api/templates/2': () => jsonResponse({ data: { ...schoolTemplate, design: makeDesign('#6d1f33') } }),
    'GET /api/templates': (url: URL) => {
      const owner = url.searchParams.get('owner');
      const all = [countryTemplate, schoolTemplate];
      return jsonResponse({ data: owner ? all.filter((x) => x.owner.key === owner) : all });
    },
    'GET /api/generations/types': () =>
      jsonResponse({
        data: [
          { code: 'diplome_etat', label: "Diplôme d'État" },
          { code: 'attestation_reussite', label: 'Attestation de réussite' },
        ],
      }),
    'GET /api/sessions': () =>
      jsonResponse({
        data: [
          { id: 3, name: 'Session 2025', year: 2025, is_current: false },
          { id: 4, name: 'Session 2026', year: 2026, is_current: true },
        ],
      }),
    'GET /api/educ-provinces': () =>
      jsonResponse({
        data: [
          { id: 5, code: 'KIN-EST', name: 'Kinshasa-Est', province: 'Kinshasa' },
          { id: 6, code: 'KIN-FUN', name: 'Kinshasa-Funa', province: 'Kinshasa' },
        ],
      }),
    // What a list of the province may name (ADR 0139), as a school-scoped account sees it.
    'GET /api/reference-data/places': (url: URL) => jsonResponse({ data: provincePlaces(Number(url.searchParams.get('province'))) }),
  };
}

/** A province's list as /reference-data/places answers it: two centres, three schools, two options. */
export function provincePlaces(provinceId = 6, manage = false) {
  return {
    province: { id: provinceId, code: 'KIN-FUN', name: 'Kinshasa-Funa', province: 'Kinshasa' },
    centres: [
      { id: 11, code: 'KIN-FUN-C1', name: 'Centre Institut Saint-Joseph', city: 'Kinshasa', educ_province_id: provinceId },
      { id: 12, code: 'KIN-FUN-C2', name: 'Centre Lycée Bosangani', city: 'Kinshasa', educ_province_id: provinceId },
    ],
    schools: [
      {
        id: 21,
        code: 'KIN-FUN-C1-E1',
        name: 'Institut Saint-Joseph',
        city: 'Kinshasa',
        country_id: 1,
        centre_id: 11,
        educ_province_id: provinceId,
        centre_code: 'KIN-FUN-C1',
        option_codes: ['BC', 'LIT'],
      },
      {
        id: 22,
        code: 'KIN-FUN-C1-E2',
        name: 'Lycée Élikya',
        city: 'Kinshasa',
        country_id: 1,
        centre_id: 11,
        educ_province_id: provinceId,
        centre_code: 'KIN-FUN-C1',
        option_codes: ['LIT'],
      },
      {
        id: 23,
        code: 'KIN-FUN-C2-E1',
        name: "Complexe scolaire N'Sele",
        city: 'Maluku',
        country_id: 1,
        centre_id: 12,
        educ_province_id: provinceId,
        centre_code: 'KIN-FUN-C2',
        option_codes: [],
      },
    ],
    options: [
      { id: 1, code: 'BC', name: 'Biologie-Chimie', section: 'Scientifique' },
      { id: 2, code: 'LIT', name: 'Littéraire', section: 'Littéraire' },
    ],
    abilities: { manage },
  };
}
