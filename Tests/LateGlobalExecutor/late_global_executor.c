#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "LateGlobalExecutor.h"

// Swift's runtime hook for enqueueing a job on the global executor (swift/Runtime/ConcurrencyHooks.def):
// both the hook and the original it is given use Swift's calling convention.
typedef void (*__attribute__((swiftcall)) enqueue_original)(void *job);
typedef void (*__attribute__((swiftcall)) enqueue_hook)(void *job, enqueue_original original);
extern enqueue_hook swift_task_enqueueGlobal_hook;

static double delay_seconds;

struct late_job {
    void *job;
    enqueue_original original;
};

static void *run_late(void *context) {
    struct late_job *late = context;
    struct timespec time = {(time_t)delay_seconds, (long)((delay_seconds - (double)(time_t)delay_seconds) * 1e9)};
    while (nanosleep(&time, &time) != 0 && errno == EINTR) {}
    late->original(late->job);
    free(late);
    return 0;
}

__attribute__((swiftcall)) static void enqueue_late(void *job, enqueue_original original) {
    struct late_job *late = malloc(sizeof(struct late_job));
    pthread_t thread;
    if (late == 0) abort();
    late->job = job;
    late->original = original;
    if (pthread_create(&thread, 0, run_late, late) != 0) abort();
    pthread_detach(thread);
}

void offerkit_tests_delay_global_jobs(double seconds) {
    delay_seconds = seconds;
    swift_task_enqueueGlobal_hook = enqueue_late;
}
