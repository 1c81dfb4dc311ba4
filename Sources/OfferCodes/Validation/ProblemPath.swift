import OfferJSON

/// A JSON path such as `$.offers[1].prices[0].pricePoint`, kept as parts so that problems can be
/// put in document order.
struct ProblemPath: Hashable, Sendable, CustomStringConvertible {
    /// One step of a path: a member of an object, or an element of an array.
    enum Component: Hashable, Sendable {
        case member(String)
        case index(Int)
    }

    /// The steps from the document's root.
    private(set) var components: [Component] = []

    /// `$`, the whole document.
    static let root = ProblemPath()

    /// The path of a member of the object at this path.
    subscript(member: String) -> ProblemPath {
        var path = self
        path.components.append(.member(member))
        return path
    }

    /// The path of an element of the array at this path.
    subscript(index: Int) -> ProblemPath {
        var path = self
        path.components.append(.index(index))
        return path
    }

    /// `$.offers[1].referenceName`; member names that are not identifiers are written in
    /// brackets (`$["two words"]`).
    var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index): text += "[\(index)]"
            case .member(let name) where Self.isIdentifier(name): text += "." + name
            case .member(let name): text += "[" + Self.quoted(name) + "]"
            }
        }
        return text
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
            first.isASCII
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0))
        }
    }

    private static func quoted(_ name: String) -> String {
        var text = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                text += "\\u" + Hex.padded(scalar.value, digits: 4)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
