import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open files, which bounds the connections `offerkit serve` can hold: each
/// connection is a file descriptor, and past the limit the kernel refuses to hand over new ones.
enum FileDescriptorLimit {
    /// Descriptors kept for the service's own use besides connections (listening socket, event
    /// loops, key files, logs).
    static let reserve = 256

    /// Raises the soft limit towards the hard one, as far as `maxConnections` plus ``reserve``
    /// need (a shell's default soft limit is often 1024), and warns when even the hard limit is
    /// lower than that.
    static func raise(toServe maxConnections: Int, logger: Logger) {
        let needed = rlim_t(max(0, maxConnections) + reserve)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        if limit.rlim_cur < needed {
            var raised = limit
            raised.rlim_cur = min(needed, limit.rlim_max)
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        if limit.rlim_cur < needed {
            logger.warning(
                "the open-file limit is lower than the connections allowed: connections beyond it wait or fail",
                metadata: [
                    "limit.openFiles": .stringConvertible(limit.rlim_cur),
                    "limits.maxConnections": .stringConvertible(maxConnections),
                    "hint": "raise `ulimit -n` (the hard limit) or lower --max-connections",
                ])
        }
    }

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
