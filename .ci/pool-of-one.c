// Makes Swift's cooperative pool one thread wide, for `.ci/pool-of-one COMMAND…` (LD_PRELOAD).
//
// On Linux, Swift's global concurrent executor is a libdispatch queue whose width is the number of
// configured CPUs, which libdispatch reads once with sysconf(_SC_NPROCESSORS_CONF); neither libdispatch
// nor the Swift runtime reads an environment variable for it (LIBDISPATCH_COOPERATIVE_POOL_STRICT exists
// on Apple's systems only). Answering 1 here makes the queue run one job at a time: a test that blocks
// that thread (waitUntilExit, a sleep, a semaphore) stops every other test, so a suite that passes this
// way blocks nothing. Other questions to sysconf (online CPUs, page size, …) get the real answer.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>

long sysconf(int name) {
    static long (*real)(int);
    if (name == _SC_NPROCESSORS_CONF) return 1;
    if (real == 0) real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
    return real(name);
}
