// Onboarding link record and body.
import { Type, type Static } from '@sinclair/typebox';
import { Body, Timestamp } from '../../http/schemas.js';

// An absolute http(s) URL with a host: after the scheme an optional user info, then a host that is
// not empty (so 'https://', 'https:///x', 'https://:443' and 'https://user@' are refused).
const HTTP_URL_WITH_HOST = '^[Hh][Tt][Tt][Pp][Ss]?://([^/?#@]*@)?[^/?#@:][^/?#@]*([/?#]|$)';

const HttpUrl = (description: string) =>
  Type.String({
    format: 'uri',
    pattern: HTTP_URL_WITH_HOST,
    maxLength: 2000,
    description: `${description} An absolute http(s) URL with a host, up to 2000 characters.`,
    examples: ['https://platform.example/seller/onboarding/done'],
  });

export const CreateOnboardingLinkBody = Body({
  return_url: HttpUrl('Where the seller is sent once onboarding is complete.'),
  refresh_url: HttpUrl('Where the seller is sent when the link has expired or was used; create a new link there.'),
});
Object.assign(CreateOnboardingLinkBody, {
  examples: [{ return_url: 'https://platform.example/onboarding/done', refresh_url: 'https://platform.example/onboarding/retry' }],
});
export type CreateOnboardingLinkBody = Static<typeof CreateOnboardingLinkBody>;

export const OnboardingLink = Type.Object(
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
        url: 'https://market.example/simulated/onboarding/obl_01jd2b7v8k0000000000000000/q8Zr3fT0pLx9Wm2cVb7nHs4kJd6gYe1A',
        expires_at: '2026-11-21T10:30:00.000Z',
        created_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type OnboardingLink = Static<typeof OnboardingLink>;
