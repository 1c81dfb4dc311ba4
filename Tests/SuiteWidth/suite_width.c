// How many of the suite's test cases Swift Testing runs at once.
//
// Swift Testing's default is no cap: every test case of ~1,250 starts at once. The suite's tests wait
// on child processes (offerkit, Python, openssl, node, java) and servers without holding a thread, so
// nothing else bounds them: on 2 cores, hundreds of processes then competed with the few tests that
// race a clock (a 2 s token lifetime, a rate limit giving back one request per 0.1 s, Apple's 700 ms
// answer time, a kill that must land while a copy runs), and those failed for the load alone.
// Swift Testing reads the cap from SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH when its entry
// point starts; this initializer runs before `main`, so the plain `swift test` runs with the suite's
// default. A value set in the environment beforehand wins (overwrite 0), e.g.
// `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=16 swift test`.
#include <stdlib.h>

#include "SuiteWidth.h"

#define SUITE_WIDTH_VARIABLE "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"
// Measured on 2 cores: see the commit that set it.
#define SUITE_WIDTH_DEFAULT "8"

const char *offerkit_tests_suite_width_variable(void) { return SUITE_WIDTH_VARIABLE; }

const char *offerkit_tests_suite_width(void) {
    const char *value = getenv(SUITE_WIDTH_VARIABLE);
    return value ? value : SUITE_WIDTH_DEFAULT;
}

__attribute__((constructor)) static void offerkit_tests_set_suite_width(void) {
    setenv(SUITE_WIDTH_VARIABLE, SUITE_WIDTH_DEFAULT, 0);
}
