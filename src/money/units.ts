/** Money as clients read it: credits are the ledger's unit; dollars are exact decimal strings at 1,000 credits per
 * dollar, never floats (`../shared/spec/clients.md`, "Money units"). */
const CREDITS_PER_DOLLAR = 1000;

/** Credits as a dollar decimal string ("12.345"; 1 → "0.001", 123456789 → "123456.789"). */
export function creditsToUsd(credits: number): string {
  const sign = credits < 0 ? '-' : '';
  const abs = Math.abs(credits);
  return `${sign}${Math.floor(abs / CREDITS_PER_DOLLAR)}.${String(abs % CREDITS_PER_DOLLAR).padStart(3, '0')}`;
}

/** The headers every answer of a charging call carries (200, 202 and 402): the two X-SDC headers in dollars that
 * every client reads first, and their integer-credit twins. */
export function chargeHeaders(estimatedCostCredits: number, balanceRemainingCredits: number): Record<string, string> {
  return {
    'X-SDC-Estimated-Cost': creditsToUsd(estimatedCostCredits),
    'X-SDC-Balance-Remaining': creditsToUsd(balanceRemainingCredits),
    'X-SDC-Estimated-Cost-Credits': String(estimatedCostCredits),
    'X-SDC-Balance-Remaining-Credits': String(balanceRemainingCredits),
  };
}
