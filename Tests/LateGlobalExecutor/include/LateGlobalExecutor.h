#ifndef LATE_GLOBAL_EXECUTOR_H
#define LATE_GLOBAL_EXECUTOR_H

/// From now on, every job enqueued on Swift's global concurrent executor runs only `seconds` later,
/// as on a machine so busy that each task waits that long for a thread. For the whole process and
/// for good: call it only in a child process of its own (a test that re-runs the test binary).
void offerkit_tests_delay_global_jobs(double seconds);

#endif
