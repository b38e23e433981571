// Media record and bodies (interface.md 2.4, 4.5). Types derive from them.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, ListQuery, Nullable, StringEnum, Timestamp } from '../../http/schemas.js';
import { MEDIA_CONTENT_TYPES, MEDIA_STATUSES } from './status.js';

export const MEDIA_SIZE_MAX = 10_485_760;
export const MEDIA_POSITION_MAX = 1_000_000;

const ContentType = StringEnum(MEDIA_CONTENT_TYPES, { description: 'image/jpeg, image/png, image/webp, image/gif or image/avif.' });

const MEDIA_EXAMPLE = {
  object: 'media',
  id: 'med_01jd3k7a8b9c0d1e2f3g4h5j6k',
  listing: 'lst_01jd3k5v8w9x0y1z2a3b4c5d6e',
  status: 'ready',
  content_type: 'image/jpeg',
  size_bytes: 183204,
  position: 0,
  url: 'https://api.example.com/media/mkt_01jd3k0a1b2c3d4e5f6g7h8j9k.l.med_01jd3k7a8b9c0d1e2f3g4h5j6k.t4dgw0.cT9v3dV0oZ3Wk8Jq9xFf1A',
  url_expires_at: '2026-11-21T11:00:00.000Z',
  created_at: '2026-11-21T09:30:00.000Z',
};

export const Media = Type.Object(
  {
    object: Type.Literal('media'),
    id: Type.String({ examples: ['med_01jd3k7a8b9c0d1e2f3g4h5j6k'] }),
    listing: Type.String(),
    status: StringEnum(MEDIA_STATUSES, { description: 'pending until complete checks the stored file, then ready.' }),
    content_type: ContentType,
    size_bytes: Type.Integer({ description: 'The exact file size, 1 to 10485760.' }),
    position: Type.Integer(),
    url: Nullable(Type.String({ description: 'Signed link to the file, valid at least one hour and the same all through one hour; null until ready.' })),
    url_expires_at: Nullable(Timestamp),
    created_at: Timestamp,
  },
  {
    $id: 'Media',
    examples: [MEDIA_EXAMPLE],
  },
);
export type Media = Static<typeof Media>;

export const MediaList = ListOf(Media);

export const MediaUpload = Type.Object(
  {
    media: Media,
    upload_url: Type.String({ description: 'PUT the file here with the declared Content-Type and exact size, within 10 minutes.' }),
    upload_expires_at: Timestamp,
  },
  {
    examples: [
      {
        media: { ...MEDIA_EXAMPLE, status: 'pending', url: null, url_expires_at: null },
        upload_url: 'https://api.example.com/uploads/mkt_01jd3k0a1b2c3d4e5f6g7h8j9k.l.med_01jd3k7a8b9c0d1e2f3g4h5j6k.t4d8k0.Qm9vZ2xlIHNpZ25hdHVyZQ',
        upload_expires_at: '2026-11-21T09:40:00.000Z',
      },
    ],
  },
);
export type MediaUpload = Static<typeof MediaUpload>;

export const CreateMediaBody = Body({
  content_type: ContentType,
  size_bytes: Type.Integer({ minimum: 1, maximum: MEDIA_SIZE_MAX, description: 'The exact size of the file in bytes, 1 to 10485760.' }),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: MEDIA_POSITION_MAX, default: 0, description: 'Order in the listing, lowest first; default 0.' })),
});
Object.assign(CreateMediaBody, { examples: [{ content_type: 'image/jpeg', size_bytes: 183204, position: 0 }] });
export type CreateMediaBody = Static<typeof CreateMediaBody>;

export const ListMediaQuery = ListQuery({});
export type ListMediaQuery = Static<typeof ListMediaQuery>;

export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
