// A bench process mints ids for its fixtures (workspaces, sellers, listings) before any wiring is
// built, and the root installs the modules' id prefixes only when it builds one (src/app/wiring.ts):
// importing this file installs them first, as test/helpers/harness.ts does for the tests.
import { MODULES } from '../src/app/modules.js';
import { idPrefixesOf } from '../src/app/wiring.js';
import { installIdPrefixes } from '../src/ids.js';

installIdPrefixes(idPrefixesOf(MODULES));
