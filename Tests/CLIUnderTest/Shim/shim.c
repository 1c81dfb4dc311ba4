#include <string.h>

#include "CLIUnderTestShim.h"

#define OFFERKIT_TESTS_CLI_NAME "offerkit"
#define OFFERKIT_TESTS_SIGNING_CLI_NAME "offerkit-signing-only"

/// Defined in Swift (CLIUnderTest): runs OfferKitCLI's entry point, which exits the process.
extern void offerkit_tests_run_as_offerkit(void) __attribute__((noreturn));
/// Defined in Swift (CLIUnderTest): runs OfferKitSigningCLI's entry point, which exits the process.
extern void offerkit_tests_run_as_offerkit_signing_only(void) __attribute__((noreturn));

const char *offerkit_tests_cli_name(void) { return OFFERKIT_TESTS_CLI_NAME; }

const char *offerkit_tests_signing_cli_name(void) { return OFFERKIT_TESTS_SIGNING_CLI_NAME; }

/// Runs before `main` (the test runner). glibc (and dyld) pass initializers the process's argc and argv.
__attribute__((constructor)) static void offerkit_tests_run_as_offerkit_when_named_so(int argc, char **argv) {
    if (argc < 1 || argv == 0 || argv[0] == 0) return;
    const char *slash = strrchr(argv[0], '/');
    const char *name = slash ? slash + 1 : argv[0];
    if (strcmp(name, OFFERKIT_TESTS_CLI_NAME) == 0) offerkit_tests_run_as_offerkit();
    if (strcmp(name, OFFERKIT_TESTS_SIGNING_CLI_NAME) == 0) offerkit_tests_run_as_offerkit_signing_only();
}
