#ifndef CLI_UNDER_TEST_SHIM_H
#define CLI_UNDER_TEST_SHIM_H

/// The name under which the test binary is `offerkit`: started through a link of this name (so that
/// its argv[0] ends in it), the test binary runs the CLI's entry point before `main`, instead of the
/// tests.
const char *offerkit_tests_cli_name(void);

/// The name under which the test binary is `offerkit` built with its sign commands only (the package
/// without its trait AllCommands): OfferKitSigningCLI's entry point, run the same way.
const char *offerkit_tests_signing_cli_name(void);

#endif
