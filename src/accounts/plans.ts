/**
 * Plans, their rate limits and the price list (interface section 8, CONTRACT "Keys, limits
 * and billing"). Money is integer micro-pounds everywhere: 1 GBP = 1_000_000 micros, so
 * every sum is exact in a double up to 2^53 micros (about 9 billion pounds).
 */

export const PLAN_NAMES = ['Builder', 'Hobbyist', 'StartUp', 'Scale', 'Enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);
}

/** A fixed window: at most `limit` admitted requests per `windowMs`, aligned to the Unix epoch. */
export interface RateWindow {
  /** Stable name, used as the IETF `RateLimit-Policy` item name and the counter's key. */
  readonly name: 'second' | 'day';
  readonly limit: number;
  readonly windowMs: number;
}

export const SECOND_MS = 1000;
export const DAY_MS = 86_400_000;

const PLAN_LIMITS: Readonly<Record<PlanName, { perSecond: number; perDay: number | null }>> = {
  Builder: { perSecond: 1, perDay: 300 },
  Hobbyist: { perSecond: 2, perDay: 1000 },
  StartUp: { perSecond: 5, perDay: 10_000 },
  Scale: { perSecond: 25, perDay: 100_000 },
  Enterprise: { perSecond: 100, perDay: null },
};

/** The windows enforced for a plan; Enterprise has no daily window ("unlimited"). */
export function planWindows(plan: PlanName): readonly RateWindow[] {
  const limits = PLAN_LIMITS[plan];
  const windows: RateWindow[] = [{ name: 'second', limit: limits.perSecond, windowMs: SECOND_MS }];
  if (limits.perDay !== null) windows.push({ name: 'day', limit: limits.perDay, windowMs: DAY_MS });
  return windows;
}

/** The billable request kinds; the balances endpoint reports usage under these names. */
export const BILLABLE_KINDS = ['search', 'find', 'basic', 'advanced', 'menus'] as const;
export type BillableKind = (typeof BILLABLE_KINDS)[number];

export const MICROS_PER_GBP = 1_000_000;
/** Credit every new account starts with: 10 GBP. */
export const NEW_ACCOUNT_CREDIT_MICROS = 10 * MICROS_PER_GBP;

/** Price of one successful request, micro-pounds (GBP 6 / 8 / 12 / 6 per 1000 requests). */
const UNIT_PRICE_MICROS: Readonly<Record<BillableKind, number>> = {
  search: 6000,
  find: 6000,
  basic: 8000,
  advanced: 12_000,
  menus: 6000,
};

/** Results per billed search group: a search is billed per started group of 20 requested results. */
export const SEARCH_RESULTS_PER_GROUP = 20;

/**
 * The cost of one successful request in micro-pounds. For a search, `requestedLimit` is the
 * page size asked for (the `limit` query parameter, 1..100), not the number returned:
 * 20 -> 6000, 35 -> 12000, 100 -> 30000.
 */
export function priceMicros(kind: BillableKind, requestedLimit = SEARCH_RESULTS_PER_GROUP): number {
  const unit = UNIT_PRICE_MICROS[kind];
  if (kind !== 'search') return unit;
  return Math.ceil(requestedLimit / SEARCH_RESULTS_PER_GROUP) * unit;
}

/**
 * The most a balance may hold, micro-GBP: beyond it a double no longer counts every micro-pound
 * (about 9 billion GBP). A top-up that would pass it is refused (the stores check it inside
 * the top-up's transaction).
 */
export const MAX_BALANCE_MICROS = Number.MAX_SAFE_INTEGER;

/** The refusal of a top-up that would take `accountId`'s balance past MAX_BALANCE_MICROS. */
export function balanceLimitError(accountId: string, amountMicros: number): RangeError {
  // exact: whole pounds and the micro-pounds apart (a double holds neither quotient exactly)
  const gbp = (micros: number) => {
    const fraction = String(micros % MICROS_PER_GBP).padStart(6, '0').replace(/0+$/, '');
    return `${Math.floor(micros / MICROS_PER_GBP).toLocaleString('en-GB')}${fraction === '' ? '' : `.${fraction}`}`;
  };
  return new RangeError(`a balance may hold at most ${gbp(MAX_BALANCE_MICROS)} GBP; topping up ${gbp(amountMicros)} GBP would take ${accountId} past it`);
}

/** Whole-pound digits an amount may have (999,999,999 GBP: micro-GBP stay exact in a double). */
const MAX_GBP_DIGITS = 9;

/**
 * Parses a GBP amount written in decimal (`"12"`, `"0.50"`, `"3.141592"`) to exact micros
 * without going through a binary float. At most 6 decimal places; must be > 0.
 */
export function parseGbpToMicros(text: string): number {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) throw new RangeError(`amount must be a positive GBP amount with at most 6 decimals, e.g. 25 or 12.50; got ${JSON.stringify(text)}`);
  if (match[1]!.replace(/^0+(?=\d)/, '').length > MAX_GBP_DIGITS) throw new RangeError(`amount must be at most 999,999,999 GBP; got ${JSON.stringify(text)}`);
  const pounds = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(6, '0'));
  const micros = pounds * MICROS_PER_GBP + fraction;
  if (micros <= 0) throw new RangeError(`amount must be greater than zero; got ${JSON.stringify(text)}`);
  return micros;
}
