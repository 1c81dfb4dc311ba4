#ifndef OFFERKIT_TESTS_SUITE_WIDTH_H
#define OFFERKIT_TESTS_SUITE_WIDTH_H

/// The environment variable through which Swift Testing (6.3 and later) caps how many test cases run at once.
const char *offerkit_tests_suite_width_variable(void);

/// The cap this test process runs with: the variable's value when it was set before the process started,
/// else the suite's default, set by this target's initializer before the test runner's `main`.
const char *offerkit_tests_suite_width(void);

#endif
