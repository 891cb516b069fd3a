import { config } from 'zod/v4/core';

// Zod compiles object parsers with Function() unless told not to, decided as each schema is built;
// the console's script-src has no 'unsafe-eval'. zod-jitless.ts evaluates this module before zod's
// schema builders, so it runs before any schema of the console or of @rpm/contracts exists.
config({ jitless: true });
