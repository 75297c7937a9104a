export const messagingEndpoints = {} as const;
