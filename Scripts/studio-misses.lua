-- For Scripts/bench-studio.sh: each request asks for a new instant of one design, so every
-- request is a cache miss. wrk -s Scripts/studio-misses.lua URL (URL ends in /frames/WxH/).
local threads = {}
local counter = 0
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end
function init(args)
  s200, s503, sother = 0, 0, 0
end
function request()
  counter = counter + 1
  local t = string.format("%d.%03d", id * 20000 + math.floor(counter / 1000), counter % 1000)
  return wrk.format("GET", wrk.path .. t .. ".png")
end
function response(status, headers, body)
  if status == 200 then s200 = s200 + 1 elseif status == 503 then s503 = s503 + 1 else sother = sother + 1 end
end
function done(summary, latency, requests)
  local a, b, c = 0, 0, 0
  for _, thread in ipairs(threads) do
    a = a + thread:get("s200"); b = b + thread:get("s503"); c = c + thread:get("sother")
  end
  io.write(string.format("status 200: %d, 503: %d, other: %d\n", a, b, c))
end
