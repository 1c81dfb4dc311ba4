// The HTTP floor of `Benchmarks/run`: a bare Hummingbird 2 app answering `GET /healthz` with a constant,
// built with the same release settings as `offerkit`, so that `offerkit serve`'s rows can be read against
// what the framework alone serves on the same cores. Nothing but Hummingbird's defaults: no middleware,
// no request log, the singleton event loop group.
//
//   bare-hummingbird [PORT]     binds 127.0.0.1:PORT (0, the default, lets the system choose), prints
//                               "listening on http://127.0.0.1:PORT" on stdout, and serves until SIGTERM
import Foundation
import Hummingbird

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count <= 1, let port = Int(arguments.first ?? "0"), (0...65_535).contains(port) else {
    FileHandle.standardError.write(Data("usage: bare-hummingbird [PORT] (a port from 0 to 65535)\n".utf8))
    exit(2)
}

let body = ByteBuffer(string: #"{"status":"ok"}"#)
let router = Router()
router.get("healthz") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
}
let application = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        let address = "listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)\n"
        FileHandle.standardOutput.write(Data(address.utf8))
    }
)
try await application.runService()
