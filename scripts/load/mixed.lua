-- wrk script for scripts/load.sh: each request takes the next path of PATHS_FILE (one a line:
-- picker API reads and thumbnails), so every connection walks the same mix; 5xx are counted.
local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do paths[#paths + 1] = line end
local counter = 0
-- The person's sign-in cookie (load.sh signs in first).
if os.getenv("COOKIE") and os.getenv("COOKIE") ~= "" then wrk.headers["Cookie"] = os.getenv("COOKIE") end
local threads = {}

function setup(thread)
  thread:set("offset", #threads * 7919)
  table.insert(threads, thread)
end

function init(args)
  server_errors = 0
end

function request()
  counter = counter + 1
  return wrk.format("GET", paths[((counter + offset) % #paths) + 1])
end

function response(status, headers, body)
  if status >= 500 then server_errors = server_errors + 1 end
end

function done(summary, latency, requests)
  local errors = 0
  for _, thread in ipairs(threads) do errors = errors + thread:get("server_errors") end
  io.write(string.format("RESULT requests=%d seconds=%.1f rps=%.0f p50_ms=%.2f p99_ms=%.2f server_errors=%d socket_errors=%d non2xx3xx=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, errors,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.errors.status))
end
