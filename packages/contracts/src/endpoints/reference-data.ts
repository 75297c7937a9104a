export const referenceDataEndpoints = {} as const;
