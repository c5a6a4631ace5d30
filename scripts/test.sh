#!/bin/sh
# npm test: the typecheck and the lint beside the suites. The suites spend much of their time
# waiting on the local database server, which leaves a core to tsc and Biome. Fails when any
# fails. Arguments go to vitest (npm run test:coverage passes --coverage).
npm run typecheck &
typecheck=$!
npm run lint &
lint=$!
vitest run --config test/vitest.config.ts "$@"
suites=$?
wait "$typecheck"
types=$?
wait "$lint"
linted=$?
[ "$suites" -eq 0 ] && [ "$types" -eq 0 ] && [ "$linted" -eq 0 ]
