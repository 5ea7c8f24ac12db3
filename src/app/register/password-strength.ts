// The meter's scorer lives with the rule the server applies (domain/password-strength.ts); it is still
// fetched only when the register screen scores its first password.
export { isWeakScore, loadStrengthScorer } from '../../domain/password-strength';
