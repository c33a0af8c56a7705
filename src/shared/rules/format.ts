/** What every platform's rule table shares: the source of Herald's own rules and number formatting for messages. */

/** The `source` of a rule of Herald's own making (stricter than the platform on purpose). */
export const HERALD_RULE_SOURCE = 'docs/decisions/0026-one-rule-table.md';

/** A count as messages and summaries show it: `63,206`. */
export const n = (v: number): string => v.toLocaleString('en-US');
