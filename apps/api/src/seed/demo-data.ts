/**
 * Made-up exam centres and schools, spread over the educational provinces the way the real ones
 * are (many in Kinshasa, fewer elsewhere), with the city of each province and names in the style of
 * Congolese schools. Deterministic, so that demo data is the same on every machine.
 */
import { EDUC_PROVINCES, OPTIONS } from './reference-data.ts';

const CITIES: Record<string, string> = {
  Kinshasa: 'Kinshasa',
  'Kongo-Central': 'Matadi',
  Kwango: 'Kenge',
  Kwilu: 'Kikwit',
  'Maï-Ndombe': 'Inongo',
  Équateur: 'Mbandaka',
  'Sud-Ubangi': 'Gemena',
  'Nord-Ubangi': 'Gbadolite',
  Mongala: 'Lisala',
  Tshuapa: 'Boende',
  Tshopo: 'Kisangani',
  'Bas-Uele': 'Buta',
  'Haut-Uele': 'Isiro',
  Ituri: 'Bunia',
  'Nord-Kivu': 'Goma',
  'Sud-Kivu': 'Bukavu',
  Maniema: 'Kindu',
  'Haut-Katanga': 'Lubumbashi',
  Lualaba: 'Kolwezi',
  'Haut-Lomami': 'Kamina',
  Tanganyika: 'Kalemie',
  Lomami: 'Kabinda',
  Sankuru: 'Lusambo',
  Kasaï: 'Tshikapa',
  'Kasaï-Central': 'Kananga',
  'Kasaï-Oriental': 'Mbuji-Mayi',
};

const CENTRE_HOSTS = ['Institut', 'Lycée', 'Collège', 'Complexe scolaire', 'Athénée'];
const PATRONS = [
  'Saint-Joseph',
  'Mapendo',
  'Bonsomi',
  'de la Gombe',
  'Kimbangu',
  'Elikya',
  'Tuendelee',
  'Lumière',
  'Umoja',
  'Saint-Raphaël',
  'Bondeko',
  'Mwinda',
  'La Sagesse',
  'Sainte-Thérèse',
  'Matondo',
  'Les Anges',
  'Boboto',
  'Kabambare',
  'Tumaini',
  'Excellence',
  'Saint-François',
  'Bosangani',
  'Imani',
  'Mama Yemo',
];

export interface DemoCentre {
  code: string;
  name: string;
  city: string;
  provinceCode: string;
}
export interface DemoInstitution {
  code: string;
  name: string;
  city: string;
  centreCode: string;
  provinceCode: string;
  optionCodes: string[];
}

export function buildDemoSchools(): { centres: DemoCentre[]; institutions: DemoInstitution[] } {
  const centres: DemoCentre[] = [];
  const institutions: DemoInstitution[] = [];
  let n = 0;
  for (const [provinceCode, , province] of EDUC_PROVINCES) {
    const city = CITIES[province] ?? province;
    const centreCount = province === 'Kinshasa' ? 3 : 2;
    for (let c = 0; c < centreCount; c++) {
      const centreCode = `${provinceCode}-C${c + 1}`;
      const host = `${CENTRE_HOSTS[n % CENTRE_HOSTS.length]} ${PATRONS[n % PATRONS.length]}`;
      centres.push({ code: centreCode, name: `Centre ${host}`, city, provinceCode });
      for (let s = 0; s < 3; s++) {
        n++;
        const name = `${CENTRE_HOSTS[(n + s) % CENTRE_HOSTS.length]} ${PATRONS[(n * 7 + s) % PATRONS.length]}`;
        // Each school teaches three to five options, the general tracks most often.
        const count = 3 + (n % 3);
        const optionCodes = Array.from({ length: count }, (_, k) => OPTIONS[(n + k * 4) % OPTIONS.length]![0]);
        institutions.push({
          code: `${centreCode}-E${s + 1}`,
          name: s === 0 ? name : `${name} ${city}`,
          city,
          centreCode,
          provinceCode,
          optionCodes: [...new Set(optionCodes)],
        });
      }
    }
  }
  return { centres, institutions };
}

export const DEMO_PASSWORD = 'Sceau-Demo-2026';
