import OfferSigning

extension FuzzTarget {
    /// Decodes and validates a request document; a request that decodes must decode again, to
    /// the same request, from the JSON that would be signed.
    static func fuzzAdvancedCommerce(_ input: [UInt8]) {
        let request: AdvancedCommerce.InAppRequest
        do {
            request = try AdvancedCommerce.InAppRequest.decode(json: input)
        } catch {
            _ = error.localizedDescription
            return
        }
        let signed = request.jsonBytes
        do {
            let again = try AdvancedCommerce.InAppRequest.decode(json: signed)
            check(again == request, "the signed JSON decodes to a different request")
        } catch {
            fatalError("fuzz invariant broken: the signed JSON of a decoded request does not decode: \(error)")
        }
    }
}
