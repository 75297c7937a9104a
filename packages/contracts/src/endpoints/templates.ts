export const templatesEndpoints = {} as const;
