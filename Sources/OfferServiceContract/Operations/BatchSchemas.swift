import OfferJSON
import OfferSigning

/// The schemas of `signBatch`, built from the single operations it folds: an item is the body of
/// its type's operation with `type` and an optional `id`, and a result has the members that
/// operation answers.
package enum BatchSchemas {
    /// The most items one batch takes.
    package static let maximumItems = 1000

    /// Each item type (a ``SigningOperation`` name, the vocabulary of `offerkit batch`) and the
    /// operation that signs it: the one whose scope has the type's name.
    package static let operations: [(type: SigningOperation, operation: OperationContract)] = SigningOperation.allCases
        .map {
            type in
            let singles = OperationContract.signatureOperations + OperationContract.tokenOperations
            guard let operation = singles.first(where: { $0.scope == .signing(type) }) else {
                preconditionFailure("no operation has the scope \(type.rawValue)")
            }
            return (type, operation)
        }

    /// The operation that signs items of `type`.
    package static func operation(for type: SigningOperation) -> OperationContract {
        operations.first { $0.type == type }!.operation
    }

    // MARK: Items

    package static let type = JSONSchema.enumeration(
        SigningOperation.allCases.map(\.rawValue),
        description: "What the item asks for: an operation name, as `offerkit batch` lines and API key scopes name it.")

    package static let id = JSONSchema(
        .anyOf([
            .string(StringRules(maxLength: 256), example: "storefront-monthly"),
            .integer(example: 7),
        ]),
        description: "Any string of at most 256 characters, or an integer; echoed in the item's result.",
        example: .string("storefront-monthly"))

    /// What every item must have before its type's own checks: a known `type` and, when there is
    /// one, a valid `id`; the other members are its operation's to check.
    package static let itemHeader = JSONSchema(
        .object([.init("type", type), .init("id", id, required: false)], additionalProperties: JSONSchema(.any)))

    /// The item of `type`: its operation's body members after `type` and `id`, as a named component.
    package static func item(_ type: SigningOperation, _ operation: OperationContract) -> JSONSchema {
        guard let body = operation.requestSchema, let name = body.componentName,
            case .object(let properties, nil) = body.resolved.kind
        else { preconditionFailure("\(operation.id) has no object body") }
        let own = JSONSchema.enumeration(
            [type.rawValue],
            description: "`\(type.rawValue)`: the body of `\(operation.method.rawValue) \(operation.path)`.")
        let example = body.documentedExample.map {
            JSONValue.object([("type", .string(type.rawValue))] + members(of: $0))
        }
        return JSONSchema(
            .object([.init("type", own), .init("id", id, required: false)] + properties, additionalProperties: nil),
            description: "An item of type `\(type.rawValue)`: "
                + "the members of `\(operation.method.rawValue) \(operation.path)` (\(name)), checked alike.",
            example: example
        ).named("Batch" + name)
    }

    // MARK: The request

    /// The schema the body is checked against before the handler: the envelope only. Each item is
    /// checked by the handler against its type's schema, so that one bad item fails alone.
    package static let envelope = JSONSchema.object([
        .init("requests", .array(of: JSONSchema(.any), minItems: 1, maxItems: maximumItems))
    ])

    /// The documented request: the envelope with each item's schema, chosen by `type`.
    package static let request = JSONSchema.object(
        [
            .init(
                "requests",
                .array(
                    of: JSONSchema(.oneOf(operations.map { item($0.type, $0.operation) }, discriminator: "type")),
                    minItems: 1, maxItems: maximumItems,
                    description: """
                        1 to \(maximumItems) items, answered in this order. A batch takes one rate-limit token per \
                        item, so it can hold at most the API key's burst.
                        """))
        ],
        description: "Signing requests of any types, for one API key."
    ).named("SignatureBatchRequest").example(requestExample)

    // MARK: The response

    /// The members a success may carry: those of every single operation's answer, each once (a
    /// member whose schema differs between answers, `nonce`, is any of them).
    package static let resultFields: [JSONSchema.Property] = {
        var writer = OpenAPISchemaWriter()
        var names: [String] = []
        var schemas: [String: [JSONSchema]] = [:]
        for (_, operation) in operations {
            guard case .object(let properties, _) = operation.responseSchema.resolved.kind else { continue }
            for property in properties {
                if schemas[property.name] == nil { names.append(property.name) }
                let known = schemas[property.name, default: []]
                let written = writer.write(property.schema)
                if !known.contains(where: { writer.write($0) == written }) {
                    schemas[property.name, default: []].append(property.schema)
                }
            }
        }
        return names.map { name in
            let choices = schemas[name, default: []]
            let schema =
                choices.count == 1 ? choices[0] : JSONSchema(.anyOf(choices), description: choices[0].description)
            return .init(name, schema, required: false)
        }
    }()

    /// The `Problem` component, described as an item's.
    package static var itemProblem: JSONSchema {
        var problem = ProblemSchemas.problem
        problem.description = "When the item failed: the problem its own endpoint would have answered."
        return problem
    }

    package static let result = JSONSchema.object(
        [
            .init("index", .integer(minimum: 0, description: "The item's position in `requests`, from 0.")),
            .init("type", type, required: false),
            .init("id", id, required: false),
            .init(
                "status",
                .integer(
                    minimum: 200, maximum: 599,
                    description: "The status the item's own endpoint would have answered: 200, or the problem's.")),
            .init("problem", itemProblem, required: false),
        ] + resultFields,
        description: """
            One item's result: `index`, `type` (absent when the item named no known type), `id` (when it gave a \
            valid one) and `status`, then on success (200) exactly the members its type's own endpoint answers \
            (`jws`, `keyId`, `nonce`, `issuedAt`; the legacy signature's members; or `token`, `issuedAt`, \
            `expiresAt`), on failure `problem`.
            """
    ).named("SignatureBatchResult")

    package static let response = JSONSchema.object(
        [
            .init(
                "results",
                .array(
                    of: result, minItems: 1, maxItems: maximumItems,
                    description: "One result per item, in the order of `requests`.")),
            .init("succeeded", .integer(minimum: 0, description: "How many items were signed.")),
            .init("failed", .integer(minimum: 0, description: "How many items failed (with a `problem`).")),
        ], description: "Every item's result, in request order; 200 whenever the envelope was valid."
    ).named("SignatureBatchResponse").example(responseExample)

    // MARK: Examples

    /// Three offers a storefront shows, signed in one round trip.
    package static var requestExample: JSONValue {
        .object([
            (
                "requests",
                .array(
                    [SigningOperation.promotionalOffer, .legacyPromotionalOffer, .introductoryOfferEligibility]
                        .enumerated().map {
                            index, type in
                            let fields = members(of: item(type, operation(for: type)).documentedExample)
                            let id: JSONValue = index == 2 ? .integer(3) : .string("storefront-\(index + 1)")
                            return .object([fields[0], ("id", id)] + fields.dropFirst())
                        })
            )
        ])
    }

    /// The answer to ``requestExample`` for a key without the `introductory-offer-eligibility` scope.
    package static var responseExample: JSONValue {
        let signed = { (type: SigningOperation) -> [(key: String, value: JSONValue)] in
            members(of: operation(for: type).responseSchema.documentedExample)
        }
        let problem = ServiceProblem.missingScope(keyName: "storefront", scope: .introductoryOfferEligibility)
        return .object([
            (
                "results",
                .array([
                    .object(
                        [
                            ("index", .integer(0)), ("type", .string(SigningOperation.promotionalOffer.rawValue)),
                            ("id", .string("storefront-1")), ("status", .integer(200)),
                        ] + signed(.promotionalOffer)),
                    .object(
                        [
                            ("index", .integer(1)), ("type", .string(SigningOperation.legacyPromotionalOffer.rawValue)),
                            ("id", .string("storefront-2")), ("status", .integer(200)),
                        ] + signed(.legacyPromotionalOffer)),
                    .object([
                        ("index", .integer(2)),
                        ("type", .string(SigningOperation.introductoryOfferEligibility.rawValue)),
                        ("id", .integer(3)), ("status", .integer(problem.type.status)),
                        ("problem", problem.jsonValue(requestId: ProblemType.exampleRequestId)),
                    ]),
                ])
            ),
            ("succeeded", .integer(2)), ("failed", .integer(1)),
        ])
    }

    /// The members of an object (none for anything else).
    package static func members(of value: JSONValue?) -> [(key: String, value: JSONValue)] {
        guard case .object(let members)? = value else { return [] }
        return members
    }
}
