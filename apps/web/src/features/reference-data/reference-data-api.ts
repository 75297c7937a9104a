import type { Centre, Country, EducProvince, ExamSession, Institution, Option } from '@sceau/contracts';
import { http } from '@/lib/http';
import { useApiQuery } from '@/lib/query';

/** Public reference data (spec section 7), shared by the forms of later pages. */
export function useCountries() {
  return useApiQuery({
    queryKey: ['reference-data', 'countries'],
    queryFn: async () => (await http.get<{ data: { data: Country[] } }>('/countries')).data.data,
  });
}

export function useExamSessions() {
  return useApiQuery({
    queryKey: ['reference-data', 'sessions'],
    queryFn: async () => (await http.get<{ data: ExamSession[] }>('/sessions')).data,
  });
}

export function useEducProvinces() {
  return useApiQuery({
    queryKey: ['reference-data', 'educ-provinces'],
    queryFn: async () => (await http.get<{ data: EducProvince[] }>('/educ-provinces')).data,
  });
}

export function useOptions() {
  return useApiQuery({
    queryKey: ['reference-data', 'options'],
    queryFn: async () => (await http.get<{ data: Option[] }>('/options')).data,
  });
}

/** The schools of a country (for a scope picker: filtered by province and centre on the page). */
export function useInstitutionsOfCountry(countryId: number | null) {
  return useApiQuery({
    queryKey: ['reference-data', 'institutions', 'country', countryId],
    enabled: countryId !== null,
    queryFn: async () => (await http.get<{ data: Institution[] }>(`/institutions/country/${countryId}`)).data,
  });
}

/** The exam centres of an educational province. */
export function useCentresOfProvince(provinceId: number | null) {
  return useApiQuery({
    queryKey: ['reference-data', 'centres', 'province', provinceId],
    enabled: provinceId !== null,
    queryFn: async () => (await http.get<{ data: Centre[] }>(`/centres?province=${provinceId}`)).data,
  });
}

/** The schools of an exam centre (`GET institutions/{id}?centre`). */
export function useInstitutionsOfCentre(centreId: number | null) {
  return useApiQuery({
    queryKey: ['reference-data', 'institutions', 'centre', centreId],
    enabled: centreId !== null,
    queryFn: async () => (await http.get<{ data: Institution[] }>(`/institutions/${centreId}`, { query: { centre: centreId } })).data,
  });
}
