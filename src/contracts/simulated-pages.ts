// What the simulated processor's hosted pages (src/adapters/processors/simulated/) ask of the
// modules whose records they act on: the payments module's checkout page side and the onboarding
// module's. The root hands both to the pages' routes. The page's credential (the random token in
// its URL) is the processor's: it is checked by the page, against the URL the payment or the link
// keeps, through the `check` each call is given.
import type { ServiceContext } from './context.js';

/** True when `stored`, the page URL the payment or link keeps, carries the token the page was opened with. */
export type PageTokenCheck = (stored: string | null) => boolean;

/** What the checkout page shows of a payment. */
export interface PagePayment {
  order: string | null;
  checkout: string | null;
  status: string;
  amount: number;
  currency: string;
  last_failure: string | null;
}

/** What the checkout page names beside each amount: the listing's title and its seller's name. */
export interface PageItem {
  order: string | null;
  listing: string | null;
  title: string | null;
  seller: string | null;
  amount: number;
}

export type CheckoutPage =
  | { kind: 'missing' }
  | { kind: 'open'; payment: PagePayment; items: readonly PageItem[] }
  | { kind: 'closed'; payment: PagePayment }
  | { kind: 'redirect'; url: string };

/** The payments module's side of the checkout page (a payment found by its id alone). */
export interface CheckoutPageSide {
  view(ctx: ServiceContext, paymentId: string, check: PageTokenCheck): Promise<CheckoutPage>;
  /** The Pay (`pay`) or Decline button: the payment's success or failure, reported as the processor would. */
  submit(ctx: ServiceContext, paymentId: string, check: PageTokenCheck, pay: boolean): Promise<CheckoutPage>;
}

export type OnboardingPage =
  | { kind: 'missing' }
  | { kind: 'redirect'; url: string }
  | { kind: 'open'; sellerId: string; sellerName: string | null; expiresAt: Date };

/** The onboarding module's side of the onboarding page (a link found by its id alone). */
export interface OnboardingPageSide {
  view(ctx: ServiceContext, linkId: string, check: PageTokenCheck): Promise<OnboardingPage>;
  /** The "Complete onboarding" button: the seller's payouts enabled. */
  complete(ctx: ServiceContext, linkId: string, check: PageTokenCheck): Promise<OnboardingPage>;
}

export interface SimulatedPageSides {
  checkout: CheckoutPageSide;
  onboarding: OnboardingPageSide;
}
