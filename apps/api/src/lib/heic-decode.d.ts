// heic-decode ships no types: the two calls the photo reader uses (ADR 0147).
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, 8 bits a channel. */
    data: Uint8ClampedArray;
  }
  interface HeicImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  function decode(input: { buffer: ArrayBufferLike | Uint8Array }): Promise<DecodedImage>;
  namespace decode {
    function all(input: { buffer: ArrayBufferLike | Uint8Array }): Promise<HeicImage[] & { dispose(): void }>;
  }
  export default decode;
}
