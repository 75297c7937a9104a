export const metricsEndpoints = {} as const;
