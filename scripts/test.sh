#!/bin/sh
# npm test: the typecheck and the suites side by side. The suites spend much of their time
# waiting on the local database server, which leaves a core to tsc. Fails when either fails.
npm run typecheck &
typecheck=$!
vitest run --config test/vitest.config.ts "$@"
suites=$?
wait "$typecheck"
types=$?
[ "$suites" -eq 0 ] && [ "$types" -eq 0 ]
