export const auditEndpoints = {} as const;
