import AsyncHTTPClient
import Foundation
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

extension Client {
    /// A client of the OfferKit service at `serverURL` (such as `http://127.0.0.1:8080`): AsyncHTTPClient
    /// as its transport, `apiKey` sent as a bearer token (``BearerTokenMiddleware``), and every problem
    /// answer thrown as an ``OfferKitProblem`` (``ProblemMiddleware``).
    /// - Parameters:
    ///   - apiKey: the secret of an API key (`offerkit api-key create`), or `nil` for the public endpoints.
    ///   - httpClient: the AsyncHTTPClient to send with; its shared instance by default.
    ///   - timeout: how long one request may take, its answer included.
    ///   - middlewares: more middlewares (logging, retries, metrics), run after the two above: they see
    ///     the request with its `Authorization` header and the answer before a problem is thrown.
    public init(
        serverURL: URL, apiKey: String?, httpClient: HTTPClient = .shared, timeout: TimeAmount = .seconds(30),
        middlewares: [any ClientMiddleware] = []
    ) {
        var all: [any ClientMiddleware] = [ProblemMiddleware()]
        if let apiKey { all.append(BearerTokenMiddleware(apiKey: apiKey)) }
        self.init(
            serverURL: serverURL,
            transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: timeout)),
            middlewares: all + middlewares)
    }
}
