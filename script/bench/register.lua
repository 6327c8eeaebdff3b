-- wrk script: registers a new iOS device on every request (a distinct token per thread and request).
-- The client key comes from the environment: NOTIBASE_CLIENT_KEY.
-- wrk shares the machine's cores with the server, so the script does as little per request as it
-- can: the request is formatted once (wrk.format) and only the token is put in each time, and
-- there is no response() callback (it makes wrk hand every response to Lua); wrk counts the
-- answers that are not 2xx itself, and script/bench-server fails when there are any.
local counter = 0
-- wrk sets each thread's `thread_id` (from 1) as a global of its Lua state (setup below); a local
-- here would hide it, and every thread would make the tokens "%064x" of 1, 2, … again: the tokens
-- of devices a benchmark registered in bulk, whose re-registration is an update, or a 403 when the
-- device is verified as another user.
thread_id = 0
local threads = {}
local prefix, suffix

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  counter = 0
  local placeholder = string.rep("#", 64)
  local request = wrk.format("POST", "/v1/devices", {
    ["Authorization"] = "Bearer " .. os.getenv("NOTIBASE_CLIENT_KEY"),
    ["Content-Type"] = "application/json",
  }, '{"platform":"ios","token":"' .. placeholder .. '","locale":"en-US","tags":["bench"],"appVersion":"1.0"}')
  local at = string.find(request, placeholder, 1, true)
  prefix, suffix = string.sub(request, 1, at - 1), string.sub(request, at + 64)
end

function request()
  counter = counter + 1
  return prefix .. string.format("%08x%056x", thread_id, counter) .. suffix
end
