export const healthEndpoints = {} as const;
