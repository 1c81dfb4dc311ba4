/// An offer's `product` as read (see ``OfferDraft``).
struct ProductDraft {
    var id: String?
    var productId: String?
    var type: ProductType?

    init(id: String?, productId: String?, type: ProductType?) {
        self.id = id
        self.productId = productId
        self.type = type
    }

    init(_ product: ProductReference) {
        self.init(id: product.id, productId: product.productId, type: product.type)
    }

    /// The product, when every part of it could be read.
    var reference: ProductReference? {
        guard let id, let productId, let type else { return nil }
        return ProductReference(id: id, productId: productId, type: type)
    }
}
