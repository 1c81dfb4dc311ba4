// The commands live in libraries, where the tests run them in-process: every command in OfferKitCLI,
// the `sign` commands alone in OfferKitSigningCLI (the package built without its trait AllCommands:
// `swift build --disable-default-traits --product offerkit`, which builds nothing signing does not need).
#if AllCommands
    import OfferKitCLI

    EntryPoint.main()
#else
    import OfferKitSigningCLI

    SigningEntryPoint.main()
#endif
