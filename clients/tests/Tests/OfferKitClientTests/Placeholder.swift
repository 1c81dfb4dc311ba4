import OfferKitClient
import Testing

@Test func placeholder() {}
