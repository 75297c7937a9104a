// The package ships no types; this is its whole public API.
declare module '@digitalbazaar/base45' {
  export function encode(input: Uint8Array): string;
  export function decode(input: string): Uint8Array;
}
