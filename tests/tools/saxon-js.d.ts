// The part of SaxonJS 2 (saxon-js, no types of its own) that tests/server/cfdi/sat-tools.ts uses.
declare module 'saxon-js' {
  interface TransformOptions {
    stylesheetInternal: unknown;
    sourceText: string;
    destination: 'serialized';
  }
  const SaxonJS: {
    transform(options: TransformOptions, mode: 'sync'): { principalResult: string };
  };
  export default SaxonJS;
}
