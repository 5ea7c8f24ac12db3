// What every rule module receives: the document's model, the instant to judge the Fecha against,
// the currency's decimals, the published data the caller looked up, and report() to record a finding by SAT's code.
import type { CfdiModel } from './model';
import type { PublishedLists } from './published-lists';

export interface RuleContext {
  m: CfdiModel;
  now: Date;
  tipo: string;
  /** c_Moneda decimals of the document's Moneda; undefined when the currency is not in the catalog. */
  decimals: number | undefined;
  /** The document is about to be sent to a PAC (see CheckOptions.beforeStamping). */
  beforeStamping: boolean;
  /** Exchange rates and SAT's cancelled RFCs the caller knows (CheckOptions.lists); absent: those rules are skipped. */
  lists?: PublishedLists;
  /** Records a finding; `message` replaces the rule's standard explanation when the case needs a sharper one. */
  report(code: string, message?: string): void;
}

export interface RuleModule {
  /** The matrix codes this module checks (each appears in CFDI40_RULES_IMPLEMENTED). */
  codes: readonly string[];
  check(ctx: RuleContext): void;
}
