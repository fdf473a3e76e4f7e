-- wrk script for Scripts/studio-benchmark.sh. Counts each response's status and prints the
-- totals, so that a run that is not all 200 (or 304, or the documented 503) shows it.
--
--   FRAME_BASE=/v1/designs/ID/frames/640x360 MODE=new wrk -s frames.lua http://127.0.0.1:PORT
--
-- MODE=new: every request asks for an instant that no request of the run asked for before
--   (instants 1 ms apart, each thread in a band of its own, RUN_OFFSET seconds on), so every
--   one is a cache miss.
-- MODE=same: every request asks for the URL given to wrk; IF_NONE_MATCH, when set, is sent
--   as If-None-Match, so the answers are 304.
local mode = os.getenv("MODE") or "same"
local base = os.getenv("FRAME_BASE")
local offset = tonumber(os.getenv("RUN_OFFSET") or "0")
local etag = os.getenv("IF_NONE_MATCH")
local threads = {}
local counter = 0

function setup(thread)
    thread:set("id", #threads)
    table.insert(threads, thread)
end

function init(args)
    statuses = {}
    if etag and etag ~= "" then wrk.headers["If-None-Match"] = etag end
end

if mode == "new" then
    function request()
        counter = counter + 1
        return wrk.format("GET", string.format("%s/%.3f.png", base, offset + id * 100 + counter / 1000))
    end
end

function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
    local totals = {}
    for _, thread in ipairs(threads) do
        for status, n in pairs(thread:get("statuses")) do totals[status] = (totals[status] or 0) + n end
    end
    local parts = {}
    for status, n in pairs(totals) do table.insert(parts, status .. "=" .. n) end
    table.sort(parts)
    io.write("statuses: " .. table.concat(parts, " ") .. "\n")
    io.write(string.format("p99_ms: %.2f\n", latency:percentile(99) / 1000))
end
