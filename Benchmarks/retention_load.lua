-- wrk script of Benchmarks/run's Retention Messaging row: POSTs the real-time requests that
-- make_retention_requests.py signed, each once, to the Get Retention Message endpoint, and counts an
-- answer as a success only when it is a 200 carrying a V2 promotional offer (the rule the run
-- configures). Arguments (after --): the folder with header.txt and requests.txt.
--   wrk -t1 -c16 -d10s -s retention_load.lua http://127.0.0.1:PORT/v1/retention/realtime -- FOLDER
local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    local folder = args[1]
    local file = assert(io.open(folder .. "/header.txt"))
    header = file:read("*l")
    file:close()
    tails = {}
    for line in io.lines(folder .. "/requests.txt") do
        tails[#tails + 1] = line
    end
    sent, failed, replayed = 0, 0, 0
end

function request()
    sent = sent + 1
    local index = sent
    if index > #tails then
        -- Every request was sent once: the rest are replays (answered from the replay cache), counted apart.
        replayed = replayed + 1
        index = (index - 1) % #tails + 1
    end
    local body = '{"signedPayload":"' .. header .. "." .. tails[index] .. '"}'
    return wrk.format("POST", nil, { ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
    if status ~= 200 or not string.find(body, '"promotionalOfferSignatureV2"', 1, true) then
        failed = failed + 1
    end
    if sent >= #tails then
        wrk.thread:stop()
    end
end

function done(summary, latency, requests)
    local failures, replays = 0, 0
    for _, thread in ipairs(threads) do
        failures = failures + thread:get("failed")
        replays = replays + thread:get("replayed")
    end
    io.write(string.format(
        'WRK-RESULT {"requests": %d, "seconds": %.6f, "p50_us": %d, "p99_us": %d, "not_2xx": %d, '
            .. '"socket_errors": %d, "failed": %d, "replayed": %d}\n',
        summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
        summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write
            + summary.errors.timeout, failures, replays))
end
