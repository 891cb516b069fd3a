/**
 * The flags of the node process the server runs in: `npm start` passes them (package.json), and
 * the benchmarks and the browser tests start the built server with them too, as a user starts it.
 *
 * `--max-semi-space-size=64`: V8's young generation may grow to 64 MB semi-spaces (the default
 * stops at 16 MB). A collector batch's objects (a thousand readings parsed, validated, checked and
 * sent) live as long as its request, and with a few requests in flight the default young
 * generation filled every 50–60 ms: each scavenge found a whole request's worth of objects still
 * alive, copied them and moved them to the old generation, which then needed full collections.
 * Measured in the ingest benchmark (--trace-gc, 508 batches of 1,000 readings, 4 clients):
 * scavenges took 955 ms of the event loop with the default, 603 ms at 32 MB and 296 ms at 64 MB
 * (128 MB: 263 ms). The young generation only grows that far under such load.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
