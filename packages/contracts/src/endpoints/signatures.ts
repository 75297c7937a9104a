export const signaturesEndpoints = {} as const;
