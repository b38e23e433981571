// Onboarding link record and body (contract 5).
import { Type, type Static } from '@sinclair/typebox';
import { Body, Timestamp } from '../../http/schemas.js';

const HttpUrl = (description: string) =>
  Type.String({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', maxLength: 2000, description, examples: ['https://platform.example/seller/onboarding/done'] });

export const OnboardingLinkBody = Body({
  return_url: HttpUrl('Where the seller is sent once onboarding is complete.'),
  refresh_url: HttpUrl('Where the seller is sent when the link has expired or was used; create a new link there.'),
});
export type OnboardingLinkBody = Static<typeof OnboardingLinkBody>;

export const OnboardingLinkRecord = Type.Object(
  {
    object: Type.Literal('onboarding_link'),
    id: Type.String(),
    seller: Type.String(),
    url: Type.String({ description: "The processor's onboarding page; send the seller there. Single use." }),
    expires_at: Timestamp,
    created_at: Timestamp,
  },
  {
    examples: [
      {
        object: 'onboarding_link',
        id: 'obl_01jd2b7v8k0000000000000000',
        seller: 'sel_01jd2b7v8k0000000000000000',
        url: 'https://market.example/simulated/onboarding/obl_01jd2b7v8k0000000000000000',
        expires_at: '2026-11-21T10:30:00.000Z',
        created_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type OnboardingLink = Static<typeof OnboardingLinkRecord>;
