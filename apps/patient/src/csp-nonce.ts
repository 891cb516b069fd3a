import { config as configureZod } from 'zod';

/*
 * Prepares libraries for the Content-Security-Policy (script-src has no 'unsafe-eval'): zod
 * compiles object parsers with Function() unless told not to. main.tsx imports this first.
 */
configureZod({ jitless: true });
