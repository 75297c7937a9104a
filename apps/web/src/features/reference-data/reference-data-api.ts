import type { CreateCentreRequest, CreateSchoolRequest, Institution, RenamePlaceRequest } from '@sceau/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
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

// ---------------------------------------------------------------- a province's list, kept by national staff (ADR 0139)

const PLACES_KEY = ['reference-data', 'places'];

/** A province's centres, schools and options as far as the user's scope reaches, and whether the user may change them. */
export function useProvincePlaces(provinceId: number | null) {
  return useApiQuery({
    queryKey: [...PLACES_KEY, provinceId],
    enabled: provinceId !== null,
    queryFn: async () => (await api.call(endpoints.referenceData.places, { query: { province: provinceId! } })).data,
  });
}

/** Adding or renaming a school or centre, and importing a CSV of them: the lists shown are read again after. */
export function usePlaceChanges() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: PLACES_KEY });
  return {
    addCentre: useMutation({ mutationFn: async (body: CreateCentreRequest) => (await api.call(endpoints.referenceData.createCentre, { body })).data, onSuccess: refresh }),
    addSchool: useMutation({ mutationFn: async (body: CreateSchoolRequest) => (await api.call(endpoints.referenceData.createSchool, { body })).data, onSuccess: refresh }),
    rename: useMutation({
      mutationFn: async ({ kind, id, body }: { kind: 'centre' | 'school'; id: number; body: RenamePlaceRequest }) =>
        (await api.call(kind === 'centre' ? endpoints.referenceData.renameCentre : endpoints.referenceData.renameSchool, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
    importCsv: useMutation({
      mutationFn: async (file: File) => {
        const form = new FormData();
        form.append('file', file, file.name);
        return (await api.call(endpoints.referenceData.importPlaces, { body: form })).data;
      },
      onSuccess: refresh,
    }),
  };
}
