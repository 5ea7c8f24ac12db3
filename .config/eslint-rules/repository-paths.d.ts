// Types of repository-paths.js for the TypeScript tools that share its check.
import type { Rule } from 'eslint';

export interface PathLeak {
  /** File, relative to the root. */
  file: string;
  line: number;
  literal: string;
  why: string;
}

export function leaksIn(text: string, file: string, root: string): PathLeak[];

declare const rule: Rule.RuleModule;
export default rule;
