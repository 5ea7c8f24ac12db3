// Types for the single dictionary files of the zxcvbn language packs (they ship no per-file .d.ts).
declare module '@zxcvbn-ts/language-common/dist/adjacencyGraphs.json.mjs' {
  import type { OptionsGraph } from '@zxcvbn-ts/core';
  const graphs: OptionsGraph;
  export default graphs;
}
declare module '@zxcvbn-ts/language-es-es/dist/firstnames.json.mjs' {
  const words: string[];
  export default words;
}
declare module '@zxcvbn-ts/language-es-es/dist/lastnames.json.mjs' {
  const words: string[];
  export default words;
}
declare module '@zxcvbn-ts/language-es-es/dist/wordSequences.json.mjs' {
  const sequences: Record<string, string[]>;
  export default sequences;
}
declare module '@zxcvbn-ts/language-es-es/dist/translations.mjs' {
  import type { TranslationKeys } from '@zxcvbn-ts/core';
  const translations: TranslationKeys;
  export default translations;
}
