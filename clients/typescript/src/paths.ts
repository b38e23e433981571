// The document's paths, split by who calls them: `paths`, the /v1 API a marketplace's key calls,
// and `managePaths`, the /manage/v1 management API a user's token calls (sign-up, login,
// workspaces, marketplaces, settings, API keys, members). One generated schema holds both.
import type { paths as documentPaths } from './schema.js';

/** The /v1 API: what an API key (`sk_…`, `pk_…`) calls. */
export type paths = { [P in keyof documentPaths as P extends `/v1/${string}` ? P : never]: documentPaths[P] };

/** The /manage/v1 management API: what a management token (`mgt_…`) calls. */
export type managePaths = { [P in keyof documentPaths as P extends `/manage/v1/${string}` ? P : never]: documentPaths[P] };
