import Foundation

extension JSON {
    /// Parses with `JSONSerialization`: the same values as ``parse(_:)``, about 40 times faster on the
    /// stand-in's state (hundreds of kilobytes) in a debug build. `nil` when `data` is not JSON.
    static func parseLarge(_ data: Data) -> JSON? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        return JSON(foundation: object)
    }

    /// A value of `JSONSerialization`'s: booleans are the `NSNumber`s of type `c`.
    private init(foundation value: Any) {
        switch value {
        case is NSNull: self = .null
        case let text as String: self = .string(text)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c": self = .bool(number.boolValue)
            case "d", "f": self = .double(number.doubleValue)
            default: self = .int(number.int64Value)
            }
        case let items as [Any]: self = .array(items.map { JSON(foundation: $0) })
        case let members as [String: Any]: self = .object(members.mapValues { JSON(foundation: $0) })
        default: self = .null
        }
    }

    /// Compact JSON with sorted members: equal values give equal text.
    var canonical: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): CampaignFiles.quoted(value)
        case .array(let items): "[" + items.map(\.canonical).joined(separator: ",") + "]"
        case .object(let members):
            "{"
                + members.sorted { $0.key < $1.key }.map { CampaignFiles.quoted($0.key) + ":" + $0.value.canonical }
                .joined(separator: ",") + "}"
        }
    }
}
