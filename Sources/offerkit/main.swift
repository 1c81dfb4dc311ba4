import OfferKitCLI

// The commands live in the OfferKitCLI library, where the tests run them in-process.
EntryPoint.main()
