import ArgumentParser
import OfferCodes
import OfferKitSigningCLI

/// `--environment` of `codes`, read in any case as every enumerated flag is (the signing commands'
/// module, OfferKitSigningCLI, reads each ``EnumeratedValue`` so).
extension CodeEnvironment: ExpressibleByArgument {}
