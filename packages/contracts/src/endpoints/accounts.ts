export const accountsEndpoints = {} as const;
