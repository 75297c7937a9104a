import type { Institution } from '@sceau/contracts';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { useApiQuery } from '@/lib/query';

/** Public reference data (spec section 7), shared by the forms of later pages. */
export function useCountries() {
  return useApiQuery({
    queryKey: ['reference-data', 'countries'],
    queryFn: async () => (await api.call(endpoints.referenceData.countries)).data.data,
  });
}

export function useExamSessions() {
  return useApiQuery({
    queryKey: ['reference-data', 'sessions'],
    queryFn: async () => (await api.call(endpoints.referenceData.sessions)).data,
  });
}

export function useEducProvinces() {
  return useApiQuery({
    queryKey: ['reference-data', 'educ-provinces'],
    queryFn: async () => (await api.call(endpoints.referenceData.educProvinces)).data,
  });
}

export function useOptions() {
  return useApiQuery({
    queryKey: ['reference-data', 'options'],
    queryFn: async () => (await api.call(endpoints.referenceData.options)).data,
  });
}

/** The schools of a country (for a scope picker: filtered by province and centre on the page). */
export function useInstitutionsOfCountry(countryId: number | null) {
  return useApiQuery({
    queryKey: ['reference-data', 'institutions', 'country', countryId],
    enabled: countryId !== null,
    queryFn: async () => (await api.call(endpoints.referenceData.institutionsOfCountry, { params: { id: countryId! } })).data,
  });
}

/** The exam centres of an educational province. */
export function useCentresOfProvince(provinceId: number | null) {
  return useApiQuery({
    queryKey: ['reference-data', 'centres', 'province', provinceId],
    enabled: provinceId !== null,
    queryFn: async () => (await api.call(endpoints.referenceData.centresOfProvince, { query: { province: provinceId! } })).data,
  });
}

/** The schools of an exam centre (`GET institutions/{id}?centre`: with `centre` the answer is the list). */
export function useInstitutionsOfCentre(centreId: number | null) {
  return useApiQuery({
    queryKey: ['reference-data', 'institutions', 'centre', centreId],
    enabled: centreId !== null,
    queryFn: async () => (await api.call(endpoints.referenceData.institution, { params: { id: centreId! }, query: { centre: centreId } })).data as Institution[],
  });
}
