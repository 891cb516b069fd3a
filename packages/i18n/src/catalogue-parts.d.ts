/** A part of a catalogue file, cut out by the console's build (vite.config.ts; load.ts). */
declare module '*.json?startup' {
  const catalogue: Record<string, unknown>;
  export default catalogue;
}
