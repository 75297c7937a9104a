export const distributionEndpoints = {} as const;
