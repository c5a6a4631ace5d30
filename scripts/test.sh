#!/bin/sh
# npm test: the typecheck and the lint beside the suites. They run at a lower priority (nice):
# the suites' start (the database server, Chromium, workerd) is what the run waits on, and the
# checks fill the moments the suites wait on the database server. Fails when any fails.
# Arguments go to vitest (npm run test:coverage passes --coverage).
nice -n 10 npm run typecheck &
typecheck=$!
nice -n 10 npm run lint &
lint=$!
vitest run --config test/vitest.config.ts "$@"
suites=$?
wait "$typecheck"
types=$?
wait "$lint"
linted=$?
[ "$suites" -eq 0 ] && [ "$types" -eq 0 ] && [ "$linted" -eq 0 ]
