import ArgumentParser
import OfferJSON

/// A flag's enumerated value (`--format`, `--environment`, `--kind`, …) is read as every input
/// reads one (``EnumeratedValue``): in any case, so `--environment sandbox`, `Sandbox` and
/// `SANDBOX` are one value. `--help` and errors list the one spelling output writes.
extension ExpressibleByArgument where Self: EnumeratedValue {
    public init?(argument: String) { self.init(anyCase: argument) }

    public static var allValueStrings: [String] { spellings }
}
