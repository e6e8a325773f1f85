-- wrk script: each thread's requests rotate through the paths listed (one a line) in the
-- file given after `--` (then, optionally, a Cookie header value to send with each); every
-- thread starts at its own place in the list. At the end it prints
-- one line, `RESULT {json}`, that bench_web.py reads.
local paths = {}
local next_index = 1
local threads_made = 0
local headers = nil

function setup(thread)
  thread:set("first", threads_made * 17)
  threads_made = threads_made + 1
end

function init(args)
  -- An optional second argument: a Cookie header value (the person's signed-in browser).
  if args[2] and #args[2] > 0 then headers = { ["Cookie"] = args[2] } end
  for line in io.lines(args[1]) do
    if #line > 0 then paths[#paths + 1] = line end
  end
  if #paths == 0 then error("no paths in " .. tostring(args[1])) end
  next_index = (first or 0) % #paths + 1
end

function request()
  local path = paths[next_index]
  next_index = next_index % #paths + 1
  return wrk.format("GET", path, headers)
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "durationMicroseconds": %d, "bytes": %d, "non2xx": %d, ' ..
    '"socketErrors": %d, "latencyP50Microseconds": %d, "latencyP99Microseconds": %d}\n',
    summary.requests, summary.duration, summary.bytes, errors.status,
    errors.connect + errors.read + errors.write + errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
