// zulip-js ships no type declarations; the tests describe the part they use where they use it.
declare module 'zulip-js' {
  const zulip: (config: Record<string, unknown>) => Promise<unknown>;
  export default zulip;
}
