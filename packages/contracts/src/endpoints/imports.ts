export const importsEndpoints = {} as const;
