// Every module of the service, by its manifest (src/contracts/wiring.ts). The order is the order
// of their routes in the OpenAPI document and of their other lists (subscribers, hooks); erasure
// has an order of its own (wiring.ts). Adding a module is one line here. The flows' routes and
// timers (src/flows/manifests.ts) sit before the module whose resource they make.
import type { ModuleManifest } from '../contracts/wiring.js';
import { accountsModule } from '../modules/accounts/module.js';
import { buyersModule } from '../modules/buyers/module.js';
import { categoriesModule } from '../modules/categories/module.js';
import { checkoutsModule } from '../modules/checkouts/module.js';
import { checkOutFlow, listingAvailabilityFlows, listingMediaFlows, payOutFlow, placeOrderFlow, sellerBalanceFlow } from '../flows/manifests.js';
import { bookingsModule } from '../modules/bookings/module.js';
import { dashboardModule } from '../modules/dashboard/module.js';
import { emailsModule } from '../modules/emails/module.js';
import { ledgerModule } from '../modules/ledger/module.js';
import { reportsModule } from '../modules/reports/module.js';
import { eventsModule } from '../modules/events/module.js';
import { listingsModule } from '../modules/listings/module.js';
import { marketplacesModule } from '../modules/marketplaces/module.js';
import { mediaModule } from '../modules/media/module.js';
import { moderationModule } from '../modules/moderation/module.js';
import { onboardingModule } from '../modules/onboarding/module.js';
import { ordersModule } from '../modules/orders/module.js';
import { partiesModule } from '../modules/parties/module.js';
import { paymentsModule } from '../modules/payments/module.js';
import { payoutsModule } from '../modules/payouts/module.js';
import { processorWebhooksModule } from '../modules/processor-webhooks/module.js';
import { reputationModule } from '../modules/reputation/module.js';
import { reviewsModule } from '../modules/reviews/module.js';
import { sellersModule } from '../modules/sellers/module.js';
import { testHelpersModule } from '../modules/test-helpers/module.js';
import { verificationsModule } from '../modules/verifications/module.js';
import { webhooksModule } from '../modules/webhooks/module.js';

export const MODULES: readonly ModuleManifest[] = [
  marketplacesModule,
  eventsModule,
  testHelpersModule,
  categoriesModule,
  sellersModule,
  listingsModule,
  listingAvailabilityFlows,
  bookingsModule,
  buyersModule,
  verificationsModule,
  onboardingModule,
  webhooksModule,
  placeOrderFlow,
  ordersModule,
  checkOutFlow,
  checkoutsModule,
  paymentsModule,
  payOutFlow,
  payoutsModule,
  sellerBalanceFlow,
  ledgerModule,
  reportsModule,
  reviewsModule,
  reputationModule,
  listingMediaFlows,
  mediaModule,
  moderationModule,
  accountsModule,
  emailsModule,
  processorWebhooksModule,
  dashboardModule,
  partiesModule,
];
