-- wrk script of Benchmarks/run's HTTP rows (nginx, bare Hummingbird, `offerkit serve`, the FastAPI peer):
-- one request, the same on every connection, and one WRK-RESULT line of JSON at the end.
-- Arguments (after --), all optional:
--   TOKEN       a bearer API key, or - for none
--   BODY-FILE   a file whose content is POSTed as application/json, or - (or absent) for a GET
--   ITEMS       for a batch body: how many items each request carries; then every answer must say
--               "failed": 0 (per-item problems arrive inside a 200), and answers that do not are counted
--   wrk -t1 -c16 -d10s -s service_load.lua http://127.0.0.1:PORT/healthz
--   wrk -t1 -c16 -d10s -s service_load.lua URL -- SECRET single.json
--   wrk -t1 -c16 -d10s -s service_load.lua URL -- SECRET batch-100.json 100
-- Only the batch rows read the answers' bodies (wrk skips bodies when `response` is nil): at a few
-- hundred requests a second that costs wrk nothing worth measuring.
local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    local token, body_file, items = args[1], args[2], tonumber(args[3])
    if token and token ~= "-" then
        wrk.headers["Authorization"] = "Bearer " .. token
    end
    if body_file and body_file ~= "-" then
        local file = assert(io.open(body_file, "rb"))
        wrk.method = "POST"
        wrk.body = file:read("*a")
        file:close()
        wrk.headers["Content-Type"] = "application/json"
    end
    failed = 0
    if not items then
        response = nil
    end
end

function response(status, headers, body)
    if status ~= 200 or not string.find(body, '"failed"%s*:%s*0[^%d]') then
        failed = failed + 1
    end
end

function done(summary, latency, requests)
    local failures = 0
    for _, thread in ipairs(threads) do
        failures = failures + (thread:get("failed") or 0)
    end
    -- errors.status counts answers of 400 and above: every request must be answered.
    io.write(string.format(
        'WRK-RESULT {"requests": %d, "seconds": %.6f, "p50_us": %d, "p99_us": %d, "not_2xx": %d, '
            .. '"socket_errors": %d, "failed": %d}\n',
        summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
        summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write
            + summary.errors.timeout, failures))
end
