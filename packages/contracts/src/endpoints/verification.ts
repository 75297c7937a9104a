export const verificationEndpoints = {} as const;
