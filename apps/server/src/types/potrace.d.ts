/** The part of potrace's API we use (it ships no types). */
declare module 'potrace' {
  type Callback = (err: Error | null, svg: string) => void;
  const potrace: {
    trace(input: Buffer, options: Record<string, unknown>, callback: Callback): void;
    posterize(input: Buffer, options: Record<string, unknown>, callback: Callback): void;
  };
  export default potrace;
}
